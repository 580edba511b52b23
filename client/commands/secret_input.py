"""Where ``palabre host`` and ``join`` read the table secret and the invite from.

Every local user can read every process's command line (``ps``, ``/proc/PID/cmdline``, the
task manager), so a secret typed as ``--secret TEXT`` or inside an invite argument is not a
secret on a shared machine.  These are not on the command line:

* ``PALABRE_SECRET``: an environment variable, readable only by this user's processes;
* ``--secret-file FILE``: the file's first line;
* ``--secret -``: typed at a prompt that does not echo;
* ``join -``: the invite (or address) read from standard input.

``--secret TEXT`` keeps working, with a warning.  What is read is checked as any secret is
(``net.invite.check_secret``); a problem is a ``SecretInputError`` saying what to do.
"""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from client.rules.errors import SecretInputError
from net.errors import InviteError
from net.invite import check_secret

__all__ = [
    "ENV_SECRET",
    "FROM_INPUT",
    "GENERATE",
    "MAX_SECRET_FILE",
    "VISIBLE_WARNING",
    "read_invite",
    "read_secret",
]

ENV_SECRET = "PALABRE_SECRET"
FROM_INPUT = "-"
"""``--secret -`` and ``join -``: read it from the terminal or standard input."""
GENERATE = "\0generate"
"""``--secret`` given without a value: the host makes one (``net.invite.new_secret``)."""
MAX_SECRET_FILE = 4096
"""Bytes read from ``--secret-file``: a secret is at most 64 characters on its first line."""
VISIBLE_WARNING = (
    "--secret TEXT can be read by every user of this machine in the list of processes; "
    f"next time use {ENV_SECRET}=..., --secret-file FILE or --secret - (to type it)"
)


def read_secret(
    given: str | None,
    secret_file: str | None,
    *,
    environ: Mapping[str, str] = os.environ,
    prompt: Callable[[str], str] | None = None,
    warn: Callable[[str], None] | None = None,
) -> str | None:
    """The table secret from ``--secret`` (``given``), ``--secret-file`` or ``PALABRE_SECRET``,
    checked; None when none is given.  ``warn`` hears the warning of a visible secret."""
    if given is not None and secret_file is not None:
        raise SecretInputError("give the table secret once: --secret or --secret-file, not both")
    if secret_file is not None:
        text, where = _first_line(Path(secret_file)), f"the file {secret_file}"
    elif given == FROM_INPUT:
        try:
            text, where = (prompt or _ask)("Table secret (not shown): "), "what was typed"
        except EOFError:
            raise SecretInputError("no table secret was typed") from None
    elif given is not None:
        if warn is not None:
            warn(VISIBLE_WARNING)
        text, where = given, "--secret"
    elif environ.get(ENV_SECRET):
        text, where = environ[ENV_SECRET], ENV_SECRET
    else:
        return None
    try:
        return check_secret(text)
    except InviteError as error:
        raise SecretInputError(f"the table secret in {where}: {error}") from error


def _ask(question: str) -> str:
    """Ask at the terminal without echo; from a pipe, its next line (``join -`` reads the
    invite first, so ``printf 'INVITE\nSECRET\n' | palabre join - --secret -`` works)."""
    if sys.stdin.isatty():
        return getpass.getpass(question, stream=sys.stderr)
    line = sys.stdin.readline(MAX_SECRET_FILE)
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


def _first_line(path: Path) -> str:
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SECRET_FILE)
    except OSError as error:
        reason = error.strerror or str(error)
        raise SecretInputError(f"cannot read the secret file {path}: {reason}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SecretInputError(f"the secret file {path} is not UTF-8 text") from None
    lines = text.splitlines()
    return lines[0] if lines else ""


def read_invite(address: str, stdin: TextIO | None = None, stderr: TextIO | None = None) -> str:
    """``address``, or for ``join -`` the first line of standard input (asked for when it is
    a terminal)."""
    if address != FROM_INPUT:
        return address
    stdin = sys.stdin if stdin is None else stdin
    if stdin.isatty():
        print("Invite or address: ", end="", file=stderr or sys.stderr, flush=True)
    line = stdin.readline(MAX_SECRET_FILE).strip()
    if not line:
        raise SecretInputError("no invite or address on standard input (join - reads one line)")
    return line
