"""The TXT properties a host announces (client/node/discovery.py) and what a browser keeps of them.

The multicast itself is tested between network namespaces (tests/e2e/test_mdns_lab.py);
these tests cover the encoding, the strict decoding of whatever the LAN sends, the line
``palabre tables`` prints and the finder's list.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client.node.discovery import (
    FoundTable,
    TableAd,
    ad_for_roster,
    ad_properties,
    read_properties,
    service_name,
    table_line,
)
from client.node.lobby_wire import Roster, RosterPeer, RosterSeat
from client.rules.errors import BadAd
from client.runtime.mdns import TableFinder, announce_addresses, mdns_enabled
from net.handshake import PROTOCOL_VERSION
from net.identity import fingerprint
from net.invite import format_table_id, parse_invite

TABLE = bytes(range(16))
FP = fingerprint(b"k" * 32)
AD = TableAd("cognes", "cognes/1", "Ann", 2, 3, TABLE, FP)


def _txt(ad: TableAd) -> dict[bytes, bytes | None]:
    """As zeroconf hands properties to a browser: bytes to bytes."""
    return {k.encode(): v.encode() for k, v in ad_properties(ad).items()}


def test_properties_say_what_the_table_is() -> None:
    assert ad_properties(AD) == {
        "proto": str(PROTOCOL_VERSION),
        "game": "cognes",
        "rules": "cognes/1",
        "host": "Ann",
        "free": "2",
        "seats": "3",
        "table": format_table_id(TABLE),
        "fp": FP,
    }
    assert read_properties(_txt(AD)) == AD


@given(
    game=st.from_regex(r"[a-z0-9][a-z0-9_.-]{0,31}", fullmatch=True),
    name=st.text(st.characters(categories=("L", "N", "P", "Zs")), min_size=1, max_size=40).filter(
        lambda n: n.strip() == n and n.isprintable()
    ),
    seats=st.integers(1, 64),
    data=st.data(),
    table=st.binary(min_size=16, max_size=16),
    key=st.binary(min_size=32, max_size=32),
)
def test_properties_round_trip(
    game: str, name: str, seats: int, data: st.DataObject, table: bytes, key: bytes
) -> None:
    free = data.draw(st.integers(0, seats))
    ad = TableAd(game, f"{game}/1", name, free, seats, table, fingerprint(key))
    assert read_properties(_txt(ad)) == ad
    assert all(len(v.encode()) < 256 for v in ad_properties(ad).values())  # one TXT string


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("game", None, "no 'game' property"),
        ("game", b"Cognes!", "is not a game name"),
        ("rules", b"../../etc", "is not a ruleset id"),
        ("host", b"", "1 to 40 characters"),
        ("host", b"x" * 41, "1 to 40 characters"),
        ("host", b"Ann\x1b[2J", "unprintable"),
        ("host", b"\xff\xfe", "not UTF-8"),
        ("free", b"4", "from 0 to 3"),
        ("free", b"-1", "from 0 to 3"),
        ("seats", b"0", "from 1 to 64"),
        ("seats", b"99999999999", "from 1 to 64"),
        ("proto", b"one", "number"),
        ("table", b"abc", "table id"),
        ("fp", b"K3QF", "not a fingerprint"),
    ],
)
def test_whatever_the_lan_sends_is_checked(key: str, value: bytes | None, reason: str) -> None:
    properties = _txt(AD)
    if value is None:
        del properties[key.encode()]
    else:
        properties[key.encode()] = value
    with pytest.raises(BadAd, match=reason):
        read_properties(properties)


def test_a_property_without_a_value_is_refused() -> None:
    properties = _txt(AD)
    properties[b"fp"] = None  # a TXT string "fp" without "="
    with pytest.raises(BadAd, match="no 'fp' property"):
        read_properties(properties)


def test_the_ad_follows_the_lobby() -> None:
    ann, bob = b"a" * 32, b"b" * 32
    roster = Roster(
        "cognes",
        "cognes/1",
        "1.0",
        {"seats": 3},
        (RosterPeer(ann, "Ann", "", 7000, True), RosterPeer(bob, "Bob", "10.0.0.2", 0, True)),
        (RosterSeat(1, ann, None), RosterSeat(2, None, None), RosterSeat(3, bob, None)),
        0,
        (),
    )
    assert ad_for_roster(roster, TABLE, FP) == TableAd("cognes", "cognes/1", "Ann", 1, 3, TABLE, FP)
    name = service_name(AD)
    assert name.endswith("._palabre._tcp.local.") and format_table_id(TABLE)[:10] in name


def test_a_found_table_joins_by_invite_and_prints_one_line() -> None:
    found = FoundTable(AD, ("10.77.0.1",), 7000)
    assert found.address == "10.77.0.1:7000"
    invite = parse_invite(str(found.invite))
    assert (invite.addresses, invite.port, invite.table_id, invite.fingerprint) == (
        ("10.77.0.1",),
        7000,
        TABLE,
        FP,
    )
    line = table_line(found, known={"cognes": "cognes/1"})
    assert line.startswith("10.77.0.1:7000 ")
    assert "cognes" in line and "'Ann'" in line and "2 of 3 seats free" in line
    assert line.endswith(str(found.invite))
    assert table_line(found, known={}).endswith("(a game this palabre does not know)")
    assert "this palabre plays cognes/2" in table_line(found, known={"cognes": "cognes/2"})
    newer = FoundTable(TableAd("cognes", "cognes/1", "Ann", 2, 3, TABLE, FP, 99), ("1.2.3.4",), 1)
    assert not newer.compatible
    assert table_line(newer).endswith("(another palabre: protocol 99)")


def test_the_finder_keeps_what_it_heard_until_it_is_withdrawn() -> None:
    finder = TableFinder()
    one = FoundTable(AD, ("10.77.0.1",), 7000)
    other = FoundTable(TableAd("cognes", "cognes/1", "Aaron", 1, 2, TABLE, FP), ("10.77.0.2",), 1)
    finder.heard("a", one)
    finder.heard("b", other)
    assert finder.tables() == (other, one)  # by game, then host name
    generation = finder.generation
    finder.heard("a", one)  # the same again changes nothing
    assert finder.generation == generation
    fuller = FoundTable(TableAd("cognes", "cognes/1", "Ann", 1, 3, TABLE, FP), ("10.77.0.1",), 7000)
    finder.heard("a", fuller)  # an update: one seat taken
    assert finder.tables() == (other, fuller) and finder.generation == generation + 1
    finder.heard("a", None)
    finder.heard("zzz", None)  # never heard: nothing changes
    assert finder.tables() == (other,) and finder.generation == generation + 2


def test_the_suite_never_multicasts_on_the_machines_lan() -> None:
    assert not mdns_enabled()  # tests/conftest.py
    assert all(not a.startswith("127.") for a in announce_addresses())


def test_a_turned_off_finder_says_so() -> None:
    import trio

    finder = TableFinder()
    trio.run(finder.serve)
    assert finder.problem is not None and "PALABRE_MDNS=off" in finder.problem
    assert finder.tables() == () and finder.generation == 1


def test_palabre_tables_checks_its_wait_and_says_when_it_cannot_listen(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from client.commands.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["tables", "--wait", "0"])
    assert exit_info.value.code == 2
    assert "--wait must be more than 0" in capsys.readouterr().err
    assert main(["tables", "--wait", "0.1"]) == 1  # the suite turns mDNS off
    assert "finding tables on the LAN is turned off" in capsys.readouterr().err


def test_rematch_takes_a_count_of_games() -> None:
    from client.commands.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["join", "x", "--rematch"]).rematch == 1
    assert parser.parse_args(["host", "--game", "cognes", "--rematch", "3"]).rematch == 3
    assert parser.parse_args(["host", "--game", "cognes"]).rematch == 0
    assert parser.parse_args(["host", "--game", "cognes", "--no-announce"]).no_announce
