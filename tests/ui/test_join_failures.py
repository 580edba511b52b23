"""A join that fails says why in the lobby, in the player's words and the host's: refused,
unreachable, wrong host key, version mismatch, table full, no table secret.  Real hosts on
loopback TCP, a real window joining them by the start screen; a failed join is not
remembered."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, ClassVar

import pytest
import qtrio
import trio

from client.node.hosting import HostConfig
from client.node.peer_node import NodeConfig
from client.profile.settings import SettingsStore
from client.runtime.peer import Peer
from engines.consensus import ConsensusEngine
from net.identity import Identity, load_profile_identity
from net.invite import Invite, new_secret
from tests.ui.windows import click, free_port, open_window, type_text, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


class OldConsensus(ConsensusEngine):
    """Consensus as an older palabre would play it: same rules, another engine version."""

    version: ClassVar[str] = "0.9"


@asynccontextmanager
async def hosting(**options: Any) -> AsyncIterator[tuple[Peer, Invite]]:
    """A real host (not started unless asked) listening on a free loopback port."""
    engine = options.pop("engine", ConsensusEngine())
    bot_me = options.pop("bot_me", False)
    host = Peer(
        load_profile_identity("host"),
        HostConfig(engine, {"seats": 4}, "Hugo", **options),
        # a started table waits (bot_delay): the game is not what is tested here
        NodeConfig(profile="host", engine_for=lambda _name: engine, bot_delay=60, bot_me=bot_me),
    )
    invite = await host.open(0)
    loopback = Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        yield host, loopback
        host.finish(0)


def target_for(kind: str, invite: Invite) -> str:
    if kind == "wrong-host-key":  # an invite naming another key than the host's
        other = Identity.generate().fingerprint
        return str(Invite(invite.addresses, invite.port, invite.table_id, other))
    if kind == "unreachable":
        return f"127.0.0.1:{free_port()}"
    plain_address = kind in ("refused", "wrong-secret")  # no invite, so no table secret
    return f"127.0.0.1:{invite.port}" if plain_address else str(invite)


SCENARIOS: dict[str, tuple[dict[str, Any], str, str]] = {
    # kind: (host options, the explanation, the host's or the link's own words)
    "refused": (  # the host refuses the joiner's key (``refuse``, filled in by the test)
        {},
        "The host refused to seat you.",
        "the host does not admit your key at this table",
    ),
    "unreachable": ({}, "Nobody answered at that address", "connection refused"),
    "wrong-host-key": ({}, "does not match the invite", "is not the one the invite names"),
    "version-mismatch": (
        {"engine": OldConsensus()},
        "another version of palabre or of the game's rules",
        "this table plays consensus/1 with engine 0.9 but this palabre has consensus/1 with "
        "engine 1",
    ),
    "table-full": (
        {"bots": 3, "auto_start": False},
        "Every seat at that table is taken.",
        "the table is full (4 seats)",
    ),
    "started": (  # seen in a real window: a started table offered no Watch
        {"bots": 3, "auto_start": True, "bot_me": True},
        "Every seat at that table is taken. You can still watch the game.",
        "the game has already started",
    ),
    "wrong-secret": (
        {"secret": new_secret()},
        "This table admits only players with its invite",
        "did not give the table secret",
    ),
}


@pytest.mark.parametrize("kind", list(SCENARIOS))
@qt_trio
async def test_a_failed_join_is_explained(qtbot: Any, kind: str) -> None:
    options, meaning, words = SCENARIOS[kind]
    if kind == "refused":
        options = {**options, "refuse": (load_profile_identity("joiner").fingerprint,)}
    async with hosting(**options) as (_host, invite), open_window(qtbot, "joiner") as window:
        start = window.start
        type_text(start.join_target, target_for(kind, invite))
        click(qtbot, start.join_button)
        assert window.stack.currentWidget() is window.lobby, start.message.text()
        lobby = window.lobby
        await until(lobby.failure.isVisible, timeout=12)
        text = lobby.failure.text()
        assert meaning in text and words in text, text
        assert "--" not in text, text  # no command-line option to use in a window
        assert not lobby.ready.isEnabled() and not lobby.add_bot.isEnabled()
        assert lobby.leave.text() == "Back"
        assert lobby.watch.isVisible() == (kind in ("table-full", "started"))
        if kind in ("unreachable", "wrong-host-key"):  # no roster ever came
            assert lobby.title.text() == "Could not join the table"
        if kind == "started":  # one click, and the window watches the game under way
            click(qtbot, lobby.watch)
            await until(lambda: window.stack.currentWidget() is window.table, timeout=12)
            session = window.session
            assert session is not None and session.snapshot.my_seat is None
            return
        assert SettingsStore("joiner").settings.recent == ()  # only a table that let us in
        click(qtbot, lobby.leave)
        assert window.stack.currentWidget() is window.start
        assert start.recent.count() == 0


def test_every_kind_of_failure_has_its_explanation() -> None:
    from client.node.joining import JOIN_FAILURE_KINDS
    from ui.screens.lobby import FAILURES

    assert [kind for kind in JOIN_FAILURE_KINDS if kind not in FAILURES] == ["other"]


@qt_trio
async def test_a_full_table_offers_watch_and_the_window_follows_it_without_a_seat(
    qtbot: Any,
) -> None:
    """Issue 21: joining a full table is refused, and the lobby offers *Watch* (no flag to
    type): one click joins the same table again as a spectator, and once the host starts,
    the window shows the game with no seat of its own."""
    async with (
        hosting(bots=3, auto_start=False) as (host, invite),
        open_window(qtbot, "joiner") as window,
    ):
        start, lobby = window.start, window.lobby
        type_text(start.join_target, str(invite))
        click(qtbot, start.join_button)
        await until(lobby.failure.isVisible, timeout=12)
        assert "You can still watch the game." in lobby.failure.text()
        assert "--" not in lobby.failure.text()
        assert lobby.watch.isVisible() and lobby.watch.text() == "Watch"
        click(qtbot, lobby.watch)
        assert window.stack.currentWidget() is lobby, start.message.text()
        role = host.host
        assert role is not None
        await until(lambda: bool(role.lobby.spectators), timeout=12)
        assert len(role.lobby.spectators) == 1
        assert not lobby.failure.isVisible() and not lobby.watch.isVisible()
        host.set_ready(True)
        host.start_table()
        await until(lambda: window.stack.currentWidget() is window.table, timeout=12)
        session = window.session
        assert session is not None and session.snapshot.my_seat is None
