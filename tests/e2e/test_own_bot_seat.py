"""A player whose seat their palabre's bot plays (``palabre join --bot``) is a bot to everyone:
the host's terminal lobby, the start, every ply line and ``palabre verify`` name it ``Bot 2
of Bea (strong)``, as they name the bots a host runs.  Real processes over loopback, as
players run them; the host types nothing (``--bot`` too)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.tables import Table, ply_lines, verify_game_file

pytestmark = pytest.mark.e2e


def test_a_joiner_played_by_its_bot_is_named_a_bot_everywhere(table: Table) -> None:
    host = table.host("forbans", "--bot", "--bot-delay", "150", "--name", "Ana", "--no-announce")
    bea = table.join("Bea", "--bot", "--bot-delay", "150", "--bot-level", "strong")
    dee = table.join("Dee", "--watch")
    assert table.finish(90) == [0, 0, 0], table.outputs()
    bot = "Bot 2 of Bea (strong)"
    ana = "Bot 1 of Ana (normal)"
    lobby = host.wait_for(r"^lobby: Bea \(\S+\) is at the table, seat 2(.*)$")
    assert lobby[1] == f", which {bot} plays", lobby[0]
    for proc in (host, bea):
        assert re.search(
            rf"^Start: forbans, 2 seats: {re.escape(ana)}, {re.escape(bot)};", proc.output, re.M
        )
        plies = ply_lines(proc.output)
        assert plies and all(" seat " not in line for line in plies), plies
        assert any(line.split(". ", 1)[1].startswith(bot) for line in plies), plies
        assert "peer" not in proc.output.split("Start:", 1)[1], proc.output
        assert re.search(r"^Result: .*every player's palabre signed it\)$", proc.output, re.M)
    # the watcher's boards say whose turn it is by name, the end too
    turns = re.findall(r"^to move: (.*)$", dee.output, re.M)
    assert turns and set(turns) <= {ana, bot}, dee.output
    assert re.search(r"^game over: .*(Bot 1 of Ana|Bot 2 of Bea)", dee.output, re.M), dee.output
    # the Start line reads the signed START: the host's --bot seat and Bea's are bots in it
    assert table.invite is not None
    verified = verify_game_file(table.home, "host", table.invite.table_id)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert bot in verified.stdout and ana in verified.stdout
