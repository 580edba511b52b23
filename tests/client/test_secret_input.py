"""Reading the table secret and the invite off the command line: every way in, and every bad
input a clear error (``client.commands.secret_input``; the real processes are in
tests/e2e/test_secret_input.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from client.commands import cli
from client.commands.secret_input import ENV_SECRET, VISIBLE_WARNING, read_invite, read_secret
from client.rules.errors import SecretInputError

SECRET = "swordfish-and-chips"


def eof(_question: str) -> str:
    raise EOFError


def test_each_way_in_gives_the_secret(tmp_path: Path) -> None:
    heard: list[str] = []
    assert read_secret(SECRET, None, environ={}, warn=heard.append) == SECRET
    assert heard == [VISIBLE_WARNING]
    (tmp_path / "s").write_text(f"{SECRET}\r\nrest\n")
    assert read_secret(None, str(tmp_path / "s"), environ={}) == SECRET
    assert read_secret("-", None, environ={}, prompt=lambda _q: SECRET) == SECRET
    assert read_secret(None, None, environ={ENV_SECRET: SECRET}) == SECRET
    assert read_secret(None, None, environ={ENV_SECRET: ""}) is None
    assert read_secret(None, None, environ={}) is None


NO_FILE = object()
"""--secret-file names a file that is not there."""


@pytest.mark.parametrize(
    ("given", "content", "environ", "reason"),
    [
        (SECRET, "x", {}, "give the table secret once: --secret or --secret-file, not both"),
        (None, NO_FILE, {}, "cannot read the secret file .*: No such file or directory"),
        (None, b"\xff\xfe", {}, "the secret file .* is not UTF-8 text"),
        (None, "", {}, "the table secret in the file .*: a table secret has 8 to 64 characters"),
        (None, "short\n", {}, r"the table secret in the file .*: .* \(this one has 5\)"),
        ("-", None, {}, "no table secret was typed"),
        (None, None, {ENV_SECRET: " padded-secret"}, "in PALABRE_SECRET: .*without spaces"),
    ],
)
def test_bad_secrets_are_clear_errors(
    tmp_path: Path, given: str | None, content: object, environ: dict[str, str], reason: str
) -> None:
    path = tmp_path / "secret"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content)
    secret_file = None if content is None else str(path)
    with pytest.raises(SecretInputError, match=reason):
        read_secret(given, secret_file, environ=environ, prompt=eof)


def test_the_invite_comes_from_standard_input_for_join_dash() -> None:
    assert read_invite("127.0.0.1:7000") == "127.0.0.1:7000"
    assert read_invite("-", io.StringIO("  palabre://x  \nnext line\n")) == "palabre://x"
    with pytest.raises(SecretInputError, match="no invite or address on standard input"):
        read_invite("-", io.StringIO(""))


def test_a_bad_secret_file_is_a_usage_error_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PALABRE_HOME", str(tmp_path))
    missing = tmp_path / "nope"
    with pytest.raises(SystemExit) as exit_:
        cli.main(["join", "127.0.0.1:1", "--headless", "--secret-file", str(missing)])
    assert exit_.value.code == 2
    assert f"cannot read the secret file {missing}: No such file or directory" in (
        capsys.readouterr().err
    )
    # refused before the key, the settings or the network: only the profile's lock is there
    assert sorted(os.listdir(tmp_path / "profiles" / "default")) == ["in-use.json", "in-use.lock"]
