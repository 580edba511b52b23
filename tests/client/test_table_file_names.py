"""A networked table's game file is named ``DATE-GAME-PLAYERS`` at every peer, and the games
folder's index still finds it by the table id (what a rejoin knows); files named by the id,
from before, are found too.  Real peers over TCP on loopback, real files."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from client.profile import table_files
from client.profile.game_file import game_dir
from client.profile.table_files import INDEX_NAME, TableFiles
from client.rules.net_adapter import record_from_net
from client.rules.seated_names import seated_names
from client.rules.start import PeerSpec, SeatSpec, TableStart, parse_start
from net.invite import format_table_id
from net.logfile import LogWriter, read_log
from net.records import open_record
from tests.client.test_peer import host, joiner, run_all
from tests.client.tinygame import ENGINE

A, B, C = bytes([1]) * 32, bytes([2]) * 32, bytes([3]) * 32
OLD, LOST = bytes([7]) * 16, bytes([5]) * 16


def _start_in(path: Path) -> TableStart:
    return parse_start(record_from_net(open_record(read_log(path).records[0])))


@pytest.mark.trio
async def test_a_two_peer_table_names_its_files_by_day_game_and_players_on_both_sides(
    tmp_path: Path,
) -> None:
    table = host(tmp_path, params={"seats": 3, "pile": 12}, bots=1)
    codes = await run_all(table, [lambda port: joiner(tmp_path, "ann", port)])
    assert codes == [0, 0]
    table_id = table.table_id
    assert table_id is not None
    for profile in ("host", "ann"):
        games = game_dir(profile, tmp_path)
        [path] = games.glob("*.palabre-log")
        start = _start_in(path)
        assert start.table_id == table_id  # the id stays inside
        players = seated_names(start.peers, start.seats)
        bot = next(seat.seat for seat in start.seats if seat.runner is not None)
        assert sorted(players) == sorted(["Host", "ann", f"Bot {bot} of Host (normal)"])
        day = date.today().isoformat()
        expected = f"{day}-{ENGINE.name}-" + "-".join(p.replace(" ", "") for p in players)
        assert path.name == f"{expected}.palabre-log"
        assert format_table_id(table_id) not in path.name
        assert TableFiles(games).path(table_id) == path  # what a rejoin looks up


def test_players_are_named_in_seat_order_and_bots_by_their_bot_names() -> None:
    peers = [PeerSpec(A, "Ann"), PeerSpec(B, "Bea")]
    seats = [SeatSpec(3, B), SeatSpec(1, A), SeatSpec(2, C, A, "strong")]
    assert seated_names(peers, seats) == ["Ann", "Bot 2 of Ann (strong)", "Bea"]


def test_a_second_table_of_the_same_day_and_players_is_a_copy_and_each_id_finds_its_own(
    tmp_path: Path,
) -> None:
    files = TableFiles(tmp_path / "games")
    day = date(2026, 12, 3)
    first = files.create(b"\x01" * 16, day, "cognes", ["Ana", "Bo"])
    second = files.create(b"\x02" * 16, day, "cognes", ["Ana", "Bo"])
    assert first.path.name == "2026-12-03-cognes-Ana-Bo.palabre-log"
    assert second.path.name == "2026-12-03-cognes-Ana-Bo-2.palabre-log"
    assert files.path(b"\x01" * 16) == first.path
    assert files.path(b"\x02" * 16) == second.path
    assert TableFiles(tmp_path / "games").path(b"\x02" * 16) == second.path  # read again


def test_an_old_file_named_by_the_table_id_is_still_found(tmp_path: Path) -> None:
    games = tmp_path / "games"
    old = games / f"{format_table_id(OLD)}.palabre-log"
    LogWriter.create(old).close()
    TableFiles(games).create(b"\x01" * 16, date(2026, 12, 3), "cognes", ["Ana"])
    assert TableFiles(games).path(OLD) == old


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2]",
        json.dumps({format_table_id(LOST): "../elsewhere.palabre-log"}).encode(),
        b"{" + b" " * (table_files.MAX_INDEX_BYTES + 1) + b"}",
    ],
)
def test_a_torn_foreign_or_oversized_index_reads_as_empty_and_never_points_outside(
    tmp_path: Path, content: bytes
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (tmp_path / "elsewhere.palabre-log").write_bytes(b"")
    (games / INDEX_NAME).write_bytes(content)
    files = TableFiles(games)
    assert files.path(LOST) == games / f"{format_table_id(LOST)}.palabre-log"
    made = files.create(b"\x06" * 16, date(2026, 12, 3), "cognes", ["Ana"])
    assert TableFiles(games).path(b"\x06" * 16) == made.path  # the index is written anew


def test_the_index_keeps_only_the_latest_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_files, "MAX_TABLES", 3)
    files = TableFiles(tmp_path / "games")
    made = [files.create(bytes([n]) * 16, date(2026, 12, 3), "cognes", ["Ana"]) for n in range(5)]
    index = json.loads((tmp_path / "games" / INDEX_NAME).read_text(encoding="utf-8"))
    assert list(index.values()) == [file.path.name for file in made[2:]]
    assert files.path(bytes([4]) * 16) == made[4].path
    assert made[0].path.exists()  # forgotten by the index, never removed
