"""The table secret off the command line (issue 19): every local user reads every process's
command line, so the secret comes from ``PALABRE_SECRET``, ``--secret-file``, a prompt
(``--secret -``) or an invite on standard input (``join -``); real processes over loopback,
and each one's ``/proc/PID/cmdline`` is read while it plays."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from client.commands.secret_input import VISIBLE_WARNING
from tests.e2e.tables import Proc, Table

pytestmark = pytest.mark.e2e

SECRET = "swordfish-and-chips"
BOTS = ("--bot", "--bot-delay", "20")


def command_line(proc: Proc) -> str:
    """What any user of the machine reads of ``proc``'s command line, read while it runs (a
    host waits for its players, a player for the table's start).  Popen returns once the exec
    is under way, a moment before the kernel shows the new arguments: wait for them."""
    path = Path(f"/proc/{proc.process.pid}/cmdline")
    deadline = time.monotonic() + 10
    while not (text := path.read_bytes().decode().replace("\0", " ")):
        assert time.monotonic() < deadline and proc.process.poll() is None, proc.output
        time.sleep(0.01)
    assert " -m client " in text, text
    return text


def test_the_secret_never_shows_in_a_command_line_and_every_way_in_works(
    table: Table, tmp_path: Path
) -> None:
    host = table.host("consensus", *BOTS, env={"PALABRE_SECRET": SECRET})
    seen = [command_line(host)]
    assert table.invite is not None and table.invite.secret == SECRET
    assert f"--secret - and type the table secret {SECRET}" in host.output
    address = f"127.0.0.1:{table.invite.port}"
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(f"{SECRET}\nanything after the first line is not read\n")
    by_file = table.join(
        "P2", "--seat", "2", *BOTS, "--secret-file", str(secret_file), target=address
    )
    seen.append(command_line(by_file))
    by_invite = table.join(
        "P3", "--seat", "3", *BOTS, target="-", stdin=table.loopback_invite() + "\n"
    )
    seen.append(command_line(by_invite))
    typed = table.join("P4", "--seat", "4", *BOTS, "--secret", "-", target=address, stdin=SECRET)
    seen.append(command_line(typed))
    assert not [line for line in seen if SECRET in line]
    for proc in (host, by_file, by_invite, typed):
        proc.wait_for(r"^Start: ", timeout=60)  # each was admitted
    assert table.finish() == [0, 0, 0, 0], table.outputs()
    assert len(set(re.findall(r"^chain: .*$", table.outputs(), re.M))) == 1, table.outputs()
    assert "Traceback" not in table.outputs()
    assert VISIBLE_WARNING not in table.outputs()  # nobody typed it in the open


def test_a_secret_in_the_open_still_works_with_a_warning(table: Table) -> None:
    host = table.host("discorder", "--bot", "--bot-delay", "0", "--secret", SECRET)
    assert SECRET in command_line(host)  # what the others on the machine read: the warning's why
    assert f"palabre: warning: {VISIBLE_WARNING}" in host.output
    assert table.invite is not None and table.invite.secret == SECRET
    table.join(
        "P2",
        "--bot",
        "--bot-delay",
        "0",
        "--secret",
        SECRET,
        target=f"127.0.0.1:{table.invite.port}",
    )
    assert table.finish() == [0, 0], table.outputs()
    assert table.outputs().count(VISIBLE_WARNING) == 2
