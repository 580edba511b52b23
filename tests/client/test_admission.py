"""Who may sit: the table secret, the host sending joiners away, refused keys, and trust on
first use of names — real peers (``client.runtime.peer.Peer``) over loopback TCP in one process."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from client.commands.headless import table_secret
from client.commands.launcher import HostRequest, JoinRequest, Launcher
from client.commands.terminal import TerminalPlayer
from client.node.hosting import HostConfig
from client.node.lobby import JoinRefused
from client.node.lobby_wire import LobbyChanged
from client.node.peer_events import JoinFailed
from client.node.peer_node import NodeConfig, next_role
from client.node.rematch import RematchPlan
from client.profile.known_peers import KnownPeers, NameConflict, name_key
from client.rules.errors import LaunchError
from client.runtime.peer import LinkLost, NameWarning, Peer
from net.identity import load_profile_identity
from net.invite import Invite, new_secret
from tests.client.peers import join_peer
from tests.client.test_peer import engine_for, events_of, host, joiner
from tests.client.tinygame import ENGINE

SECRET = new_secret()


def invite_of(table: Any, secret: str | None) -> Invite:
    return Invite(
        ("127.0.0.1",), table.port, table.host.table_id, table.identity.fingerprint, secret
    )


async def play(*peers: Peer) -> list[int | None]:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for peer in peers:
                nursery.start_soon(peer.run)  # type: ignore[attr-defined]
    return [peer.exit_code for peer in peers]


async def refused_alone(peer: Peer) -> JoinFailed:
    failures = events_of(peer)
    with trio.fail_after(10):
        await peer.run()
    assert peer.exit_code == 4
    return next(e for e in failures if isinstance(e, JoinFailed))


@pytest.mark.trio
async def test_only_joiners_proving_the_table_secret_are_admitted(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 2}, secret=SECRET)
    invite = await table.open(0)
    assert invite.secret == SECRET and f"?s={SECRET}#" in str(invite)
    lost = events_of(table)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.run)
        plain = joiner(tmp_path, "eve", table.port)  # the address, no secret
        refusal = await refused_alone(plain)
        assert "did not give the table secret" in refusal.reason
        assert refusal.reason.startswith("the host refused the join: the joiner")
        wrong = joiner(tmp_path, "eve", table.port, target=invite_of(table, "an-old-secret"))
        refusal = await refused_alone(wrong)
        assert "did not prove it knows the table secret" in refusal.reason
        assert wrong.table is None and wrong.file is None  # it never got a record
        typed = joiner(tmp_path, "ann", table.port, secret=SECRET)  # --secret, by address
        await typed.run()
    assert (table.exit_code, typed.exit_code) == (0, 0)
    reasons = [e.reason for e in lost if isinstance(e, LinkLost)]
    eve = load_profile_identity("eve", tmp_path).fingerprint[:9]
    assert any(r.startswith(f"no link: the joiner {eve}") and "table secret" in r for r in reasons)
    assert len([r for r in reasons if "table secret" in r]) == 2


@pytest.mark.trio
async def test_a_joiner_with_the_invite_plays(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 2}, secret=SECRET)
    await table.open(0)
    ann = joiner(tmp_path, "ann", table.port, target=invite_of(table, SECRET))
    assert await play(table, ann) == [0, 0]


@pytest.mark.trio
async def test_the_host_sends_a_joiner_away_before_start_and_it_stays_out(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 2})
    await table.open(0)
    ann = joiner(tmp_path, "ann", table.port, ready=False)  # else the table starts at once
    out = io.StringIO()
    typing = TerminalPlayer(table, out)

    def kick(event: Any) -> None:
        if isinstance(event, LobbyChanged) and any(p.name == "ann" for p in event.roster.peers):
            table.call_soon(lambda: typing.handle("kick 2"))

    table.observers.append(kick)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.run)
        refusal = await refused_alone(ann)
        assert refusal.reason == (
            "the host refused the join: the host removed you from this table before the game "
            "started"
        )
        table.observers.remove(kick)
        again = await refused_alone(joiner(tmp_path, "ann", table.port))
        assert again.reason.endswith("the host removed you from this table")
        bob = joiner(tmp_path, "bob", table.port)
        await bob.run()
    assert "ann was sent away and will not be admitted again at this table" in out.getvalue()
    assert (table.exit_code, bob.exit_code) == (0, 0)
    with pytest.raises(JoinRefused, match="the seats are fixed by the signed START"):
        table.remove_player(2)
    typing.handle("kick 2")
    assert "Not done: the game has started: the seats are fixed by the signed START" in (
        out.getvalue()
    )


def test_removing_names_the_wrong_target_clearly(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 3, "pile": 30})
    for who, words in (
        (2, "no player sits at seat 2"),
        ("nobody", "nobody is called 'nobody' here"),
        ("Host", "you cannot remove yourself"),
        (b"\1" * 32, "is not at this table"),
    ):
        with pytest.raises(JoinRefused, match=words):
            table.remove_player(who)
    out = io.StringIO()
    TerminalPlayer(joiner(tmp_path, "ann", 1), out).handle("kick 1")
    assert "only the host sends players away" in out.getvalue()


@pytest.mark.trio
async def test_a_refused_key_is_never_admitted(tmp_path: Path) -> None:
    ann_fp = load_profile_identity("ann", tmp_path).fingerprint
    table = host(tmp_path, params={"seats": 2}, refuse=[ann_fp])
    await table.open(0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.run)
        refusal = await refused_alone(joiner(tmp_path, "ann", table.port))
        assert refusal.reason.endswith("the host does not admit your key at this table")
        await joiner(tmp_path, "bob", table.port).run()
    assert table.exit_code == 0


# --- trust on first use --------------------------------------------------------------------------
@pytest.mark.trio
async def test_a_known_name_with_another_key_is_a_warning_on_both_sides(tmp_path: Path) -> None:
    first = host(tmp_path, params={"seats": 2})
    await first.open(0)
    ann = joiner(tmp_path, "ann", first.port)
    assert await play(first, ann) == [0, 0]
    assert not [e for e in events_of(first) if isinstance(e, NameWarning)]
    known = KnownPeers(tmp_path / "profiles" / "host" / "known-peers.json")
    assert known.keys_of("ANN") == (ann.me,)
    assert KnownPeers(tmp_path / "profiles" / "ann" / "known-peers.json").keys_of("Host") == (
        first.me,
    )

    second = host(tmp_path, params={"seats": 2})
    await second.open(0)
    mallory = join_peer(
        load_profile_identity("mallory", tmp_path),
        ("127.0.0.1", second.port),
        "Ann",
        profile="mallory",
        home=tmp_path,
        engine_for=engine_for,
        bot_me=True,
        bot_delay=0.0,
    )
    warnings = events_of(second)
    assert await play(second, mallory) == [0, 0]
    texts = [e.text for e in warnings if isinstance(e, NameWarning)]
    assert len(texts) == 1, texts  # once, though the name is seen at the join and at START
    assert texts[0].startswith(f"Ann ({mallory.identity.fingerprint[:9]}…) is not the Ann")
    assert f"key {ann.identity.fingerprint[:9]}…" in texts[0]
    # the player went on playing: both keys are known under that name now
    assert set(KnownPeers(known.path).keys_of("ann")) == {ann.me, mallory.me}


def test_the_known_peers_file_round_trips_and_compares_names_loosely(tmp_path: Path) -> None:
    path = tmp_path / "known-peers.json"
    known = KnownPeers(path)
    assert known.problem is None and known.keys_of("bob") == ()
    known.remember([(b"\1" * 32, "Bob")], today="2025-01-01")
    known.remember([(b"\1" * 32, "BOB ")], today="2025-02-01")
    again = KnownPeers(path)
    assert again.keys_of("ｂｏｂ") == (b"\1" * 32,)
    assert again.check("Bob", b"\1" * 32) is None
    conflict = again.check("bob", b"\2" * 32)
    assert isinstance(conflict, NameConflict) and conflict.known == (b"\1" * 32,)
    assert again.check("Carl", b"\2" * 32) is None
    entry = json.loads(path.read_text())["peers"][0]
    assert entry["first_seen"] == "2025-01-01" and entry["last_seen"] == "2025-02-01"
    assert name_key(" Ｂｏｂ ") == name_key("bob")


@pytest.mark.parametrize(
    "content", ["{not json", '{"format": "other"}', '{"format": "palabre-known-peers/1"}']
)
def test_an_unreadable_known_peers_file_is_reported_and_left_alone(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "known-peers.json"
    path.write_text(content)
    known = KnownPeers(path)
    assert known.problem is not None and "cannot be read" in known.problem
    known.remember([(b"\1" * 32, "Bob")])
    assert path.read_text() == content


def test_the_launcher_asks_for_a_secret_or_reads_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PALABRE_HOME", str(tmp_path))
    launcher = Launcher()
    hosted = launcher.host(HostRequest("discorder", None, 0, 7000, secret=True), "Ann")
    assert hosted.peer.host is not None and hosted.peer.secret is not None
    assert launcher.host(HostRequest("discorder", None, 0, 7000), "Ann").peer.secret is None
    joined = launcher.join(JoinRequest("10.0.0.2:7447", secret="tea-time-at-seven"), "Bob")
    assert joined.peer.secret == "tea-time-at-seven"
    with pytest.raises(LaunchError, match="a table secret has 8 to 64 characters"):
        launcher.join(JoinRequest("10.0.0.2:7447", secret="tea"), "Bob")


def test_a_secret_table_is_not_announced_and_its_rematch_keeps_the_secret(tmp_path: Path) -> None:
    assert not HostConfig(ENGINE, {}, "Host", secret=SECRET, announce=True).announced
    assert HostConfig(ENGINE, {}, "Host", announce=True).announced
    ann_key = load_profile_identity("ann", tmp_path).fingerprint
    ann = joiner(
        tmp_path, "ann", 7000, target=Invite(("10.0.0.1",), 7000, bytes(16), ann_key, SECRET)
    )
    assert table_secret(ann) == SECRET
    assert table_secret(joiner(tmp_path, "bob", 7000, secret="by-address-1")) == "by-address-1"
    assert table_secret(host(tmp_path, secret=SECRET)) == SECRET
    plan = RematchPlan(
        bytes(16),
        "10.0.0.1",
        7000,
        ann.identity.fingerprint,
        "grab",
        {"seats": 2, "pile": 9},
        60_000,
        900_000,
        2,
        (),
        frozenset(),
        is_host=False,
    )
    config = NodeConfig(profile="ann", home=tmp_path, engine_for=engine_for)
    again = Peer(ann.identity, next_role(plan, "ann", config, secret=table_secret(ann)), config)
    assert again.joining is not None and again.secret == SECRET
    role = next_role(replace(plan, is_host=True), "ann", config, secret=SECRET)
    hosting = Peer(ann.identity, role, config)
    assert hosting.host is not None and hosting.secret == SECRET
