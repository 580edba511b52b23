"""What the client remembers (name, recent tables) and the start screen's intents."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from client.commands.launcher import (
    HostRequest,
    JoinRequest,
    Launcher,
    parse_address,
    parse_options,
)
from client.node.lobby_model import LobbyModel, LobbySeat, LobbyView
from client.profile.settings import (
    MAX_PEER_ADDRESSES,
    MAX_RECENT,
    RecentTable,
    SettingsStore,
    check_name,
)
from client.rules.errors import LaunchError
from net.safe_names import is_safe_file_name


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PALABRE_HOME", str(tmp_path))
    return tmp_path


def test_name_and_recent_tables_survive_a_restart(home: Path) -> None:
    store = SettingsStore("alice")
    store.set_name("  Éloïse  ")
    for index in range(MAX_RECENT + 2):
        store.remember_table(RecentTable(f"10.0.0.{index}:7447", "consensus"))
    store.remember_table(RecentTable("10.0.0.5:7447", "consensus", "Friday"))
    again = SettingsStore("alice")
    assert again.settings.name == "Éloïse"
    addresses = [table.address for table in again.settings.recent]
    assert len(addresses) == MAX_RECENT
    assert addresses[:3] == ["10.0.0.5:7447", "10.0.0.11:7447", "10.0.0.10:7447"]
    assert again.settings.recent[0].label == "Friday"
    assert (home / "alice" / "client.json").is_file()
    assert SettingsStore("bob").settings.recent == ()


def test_a_recent_table_keeps_its_peers_addresses_and_is_one_entry_per_table(home: Path) -> None:
    """Issue 21: what a rejoin tries, in turn, survives a restart; the same table seen again
    (new addresses, another way in) replaces its entry rather than adding one."""
    store = SettingsStore("hugo")
    store.remember_table(RecentTable("palabre://x", "consensus", "Hugo", ("10.0.0.2:7448",), "ab"))
    store.remember_table(
        RecentTable("10.0.0.2:7448", "consensus", "Hugo", ("10.0.0.3:7449", "10.0.0.3:7449"), "ab")
    )
    store.remember_table(RecentTable("10.0.0.9:7447", "cognes"))
    [other, table] = SettingsStore("hugo").settings.recent
    assert other.addresses == ("10.0.0.9:7447",)  # no peer known: what was typed
    assert table.addresses == ("10.0.0.3:7449",) and table.table_id == "ab"
    many = tuple(f"10.0.1.{n}:7447" for n in range(MAX_PEER_ADDRESSES + 8))
    store.remember_table(RecentTable("10.0.1.0:7447", "consensus", "Hugo", many, "ab"))
    assert SettingsStore("hugo").settings.recent[0].peers == many[:MAX_PEER_ADDRESSES]


def test_a_recent_table_keeps_the_port_this_profile_listened_at(home: Path) -> None:
    """A rejoin listens there again (issue 21); a port that is no port is a malformed file."""
    store = SettingsStore("hugo")
    store.remember_table(RecentTable("10.0.0.2:7448", "consensus", "Hugo", (), "ab", port=7000))
    assert SettingsStore("hugo").settings.recent[0].port == 7000
    path = home / "hugo" / "client.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    for bad in (70000, -1, "7000", True):
        raw["recent"][0]["port"] = bad
        path.write_text(json.dumps(raw), encoding="utf-8")
        again = SettingsStore("hugo")
        assert again.problem is not None and "port" in again.problem, bad
        assert again.settings.recent == ()


def test_a_settings_file_from_before_peer_addresses_still_reads(home: Path) -> None:
    path = home / "ana" / "client.json"
    path.parent.mkdir()
    recent = [{"address": "10.0.0.1:7447", "game": "consensus", "label": "Bob"}]
    path.write_text(json.dumps({"name": "Ana", "recent": recent}), encoding="utf-8")
    store = SettingsStore("ana")
    assert store.problem is None
    assert store.settings.recent == (RecentTable("10.0.0.1:7447", "consensus", "Bob"),)


def test_settings_saved_first_leave_a_private_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings and keys share one home: saved first under a 002 umask, it is still 0700, so
    the key made next gets no warning about it."""
    fresh = tmp_path / "fresh" / "home"
    monkeypatch.setenv("PALABRE_HOME", str(fresh))
    old = os.umask(0o002)
    try:
        SettingsStore("alice").set_name("Alice")
    finally:
        os.umask(old)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
    assert Launcher(profile="alice").warnings() == []


@pytest.mark.parametrize("profile", ["con", "NUL.x", "ana.", "../../outside", "a/b"])
def test_settings_of_any_profile_name_stay_in_the_home_under_a_name_every_system_keeps(
    home: Path, profile: str
) -> None:
    """Issue 28: the window takes ``--profile`` as typed; its settings went to
    ``<home>/con/client.json`` (a device on Windows) or outside the home (``../..``)."""
    store = SettingsStore(profile)
    store.remember_table(RecentTable("127.0.0.1:7000"))
    assert store.path.parent.parent == home
    assert is_safe_file_name(store.path.parent.name)
    assert SettingsStore(profile).settings.recent[0].address == "127.0.0.1:7000"


def test_a_fifo_as_settings_file_gives_defaults_at_once(home: Path) -> None:
    path = home / "alice" / "client.json"
    path.parent.mkdir()
    os.mkfifo(path)
    stores: list[SettingsStore] = []
    opening = threading.Thread(target=lambda: stores.append(SettingsStore("alice")), daemon=True)
    opening.start()
    opening.join(timeout=30)  # reading a FIFO waits for a writer: the window would hang
    assert stores, "SettingsStore hung on a FIFO"
    assert stores[0].problem == f"{path} is not a regular file; using defaults."


def test_a_corrupt_file_gives_defaults_and_says_so(home: Path) -> None:
    path = home / "default" / "client.json"
    path.parent.mkdir()
    path.write_text("{not json", encoding="utf-8")
    store = SettingsStore()
    assert store.problem is not None and "Could not read" in store.problem
    assert store.settings.recent == ()
    path.write_text(json.dumps({"name": "", "recent": []}), encoding="utf-8")
    assert "malformed" in (SettingsStore().problem or "")


@pytest.mark.parametrize(
    ("name", "reason"),
    [("", "empty"), ("x" * 33, "at most 32"), ("a\tb", "control")],
)
def test_unusable_names_are_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        check_name(name)


def test_options_and_addresses_are_read_or_refused_clearly() -> None:
    assert parse_options("seats=4, variant=fast  turns=-3") == {
        "seats": 4,
        "variant": "fast",
        "turns": -3,
    }
    with pytest.raises(LaunchError, match="key=value"):
        parse_options("seats")
    with pytest.raises(LaunchError, match="twice"):
        parse_options("a=1 a=2")
    assert parse_address("192.168.1.20:7500") == ("192.168.1.20", 7500)
    assert parse_address("table.local") == ("table.local", 7000)
    assert parse_address("[fe80::1]:7000") == ("fe80::1", 7000)
    with pytest.raises(LaunchError, match="port"):
        parse_address("host:99999")
    with pytest.raises(LaunchError, match="address"):
        parse_address("my host:70")


def test_hosting_and_joining_give_network_sessions_or_say_why_not() -> None:
    launcher = Launcher()
    joined = launcher.join(JoinRequest("10.0.0.2:7447"), "Ann")
    assert not joined.started and not joined.lobby.view.is_host
    assert joined.peer.joining is not None
    assert joined.peer.joining.config.target == ("10.0.0.2", 7447)
    with pytest.raises(LaunchError, match="address"):
        launcher.join(JoinRequest("a b"))
    with pytest.raises(LaunchError, match="invite"):
        launcher.join(JoinRequest("palabre://nothing"))
    hosted = launcher.host(HostRequest("consensus", None, 2, 7000), "Ann")
    assert hosted.lobby.view.is_host and hosted.port == 7000
    assert hosted.peer.host is not None
    seats = hosted.peer.host.lobby.seats
    assert [s is not None for s in seats] == [True, True, True, False]  # Ann and two bots
    with pytest.raises(LaunchError, match="Cannot host"):
        launcher.host(HostRequest("consensus", None, 4, 7000), "Ann")  # 4 bots and Ann: 5 seats
    with pytest.raises(LaunchError, match="port"):
        launcher.host(HostRequest("consensus", None, 0, 0), "Ann")


def test_the_lobby_model_notifies_and_knows_when_a_table_can_start() -> None:
    seats = (LobbySeat(1, "Ana", "ABCD-EFGH", ready=True, is_mine=True), LobbySeat(2))
    model = LobbyModel(LobbyView("consensus", seats=seats, is_host=True))
    seen: list[bool] = []
    model.subscribe(lambda: seen.append(model.view.can_start))
    assert not model.view.can_start
    model.update(seats=(seats[0], LobbySeat(2, "Bot 2", is_bot=True, ready=True)))
    assert seen == [True]
    model.fail("the table is full (4 seats)", "table-full")
    assert model.view.failure == "the table is full (4 seats)"
    assert model.view.failure_kind == "table-full" and seen[-1] is False
    assert model.view.my_seat == seats[0]
