"""Playing again (client/node/rematch.py) with real peer processes over loopback TCP.

Four headless peers run with ``--rematch``: after the first game each accepts by itself,
the previous host opens a new table (new id, same port), every peer takes its rotated seat
(s -> s - 1, seat 1 -> 4), so the player who was at seat 2 starts, and the second game
is played to a result signed by everyone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from client.bots import make_bot
from client.bots.match import play_match
from client.node.rematch import rotated
from client.profile.table_files import TableFiles
from client.rules.net_adapter import open_envelope
from client.rules.start import parse_start
from engines import find_engine
from net.identity import load_profile_identity
from net.invite import format_table_id, parse_table_id
from net.logfile import read_log
from tests.e2e.tables import Table, chain_line

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FAST = ("--bot", "--bot-delay", "0")


def _start_of(path: Path) -> object:
    return parse_start(open_envelope(read_log(path).records[0]))


def test_four_peers_play_again_with_seats_rotated(table: Table) -> None:
    table.host("consensus", *FAST, "--rematch")
    for seat in (2, 3, 4):
        table.join(f"P{seat}", "--seat", str(seat), *FAST, "--rematch")
    codes = table.finish(timeout=240)
    outputs = table.outputs()
    assert codes == [0, 0, 0, 0], outputs
    assert table.invite is not None
    first_id = format_table_id(table.invite.table_id)

    engine = find_engine("consensus")
    bots = {seat: make_bot("consensus", "sensible", seat) for seat in range(1, 5)}
    match = play_match(engine, {"seats": 4}, bots)  # bots are seeded by seat: both games
    new_ids = set()
    for old_seat, proc in enumerate(table.procs, 1):
        out = proc.output
        assert out.count("Start: consensus, ") == 2, out
        # the engine's sentence with its seats named as each table seats them (issue 21)
        named = re.sub(r"[Ss]eat\\ \d", _bot_name, re.escape(match.outcome.summary))
        assert len(re.findall(f"^Result: {named} ", out, re.M)) == 2, out
        assert "rematch: every player accepted; on to a new table, seats rotated" in out
        found = re.search(r"^Rematch: a new table ([a-z2-7]{26}); your seat (\d)$", out, re.M)
        assert found, out
        new_ids.add(found.group(1))
        assert int(found.group(2)) == rotated(old_seat, 4)
        assert re.findall(r"your seats: (\d)", out) == [str(old_seat), found.group(2)]
        assert "Traceback" not in out
    assert len(new_ids) == 1 and first_id not in new_ids, outputs
    (second_id,) = new_ids

    # Both games are in each peer's files: the second START seats everyone rotated.
    keys = {p.name: load_profile_identity(p.name, table.home).public_key for p in table.procs}
    chains = set()
    for old_seat, proc in enumerate(table.procs, 1):
        games = table.home / "profiles" / proc.name / "games"
        first = _start_of(TableFiles(games).path(table.invite.table_id))
        second = _start_of(TableFiles(games).path(parse_table_id(second_id)))
        assert {p.key for p in second.peers} == {p.key for p in first.peers}  # type: ignore[attr-defined]
        runner = {s.seat: s.runner or s.key for s in second.seats}  # type: ignore[attr-defined]
        assert runner[rotated(old_seat, 4)] == keys[proc.name]
        assert second.host == keys["host"]  # type: ignore[attr-defined]
        chains.add(chain_line(proc.output))
    assert len(chains) == 1, outputs
    plies, final, _digest = chains.pop()
    assert plies == final == len(match.plies)


def test_no_rematch_unless_every_peer_accepts(table: Table) -> None:
    table.host("discorder", *FAST, "--rematch")
    table.join("P2", *FAST)  # plays once and leaves: that is a no
    codes = table.finish(timeout=120)
    assert codes == [0, 0], table.outputs()
    host = table.procs[0].output
    assert "rematch: P2 will not play again; no rematch" in host, host
    assert host.count("Start: ") == 1 and "Rematch: a new table" not in host


def _bot_name(_seat: re.Match[str]) -> str:
    """A seat as the Result line names it: each player's palabre plays it by a bot (--bot)."""
    return r"Bot \d of (Host|P[234]) \(normal\)"
