"""A host whose palabre crashed comes back to its table from the window (issue 21).

The window hosts a real table on loopback; Ana joins it from her own peer and the game
starts.  Then the host's palabre stops abruptly: its tasks are cancelled, its sockets close
without a goodbye, its window says nothing more.  A new window on the same profile lists
the table under the recent tables with Ana's listening address (the host's own old port
refuses: nobody listens there any more), and *Rejoin* tries the addresses in turn until Ana
answers: the host takes its table up again from its game file, through her.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import qtrio
import trio

from client.commands.launcher import Launcher
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.profile.settings import SettingsStore
from client.runtime.peer import Peer
from engines.consensus import ConsensusEngine
from net.identity import load_profile_identity
from net.invite import Invite, parse_invite
from tests.ui.windows import click, free_port, open_window, until
from ui.app import MainWindow
from ui.screens.start import RECENT_ROLE

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def ana_joins(invite: Invite) -> Peer:
    """Ana's own palabre, joining ``invite`` on loopback and ready at once."""
    engine = ConsensusEngine()
    loopback = Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint)
    return Peer(
        load_profile_identity("ana"),
        JoinConfig(loopback, "Ana", ready=True),
        NodeConfig(profile="ana", engine_for=lambda _name: engine, bot_delay=60),
    )


async def host_for_ana(
    qtbot: Any, crashed: trio.Nursery, others: trio.Nursery
) -> tuple[MainWindow, Peer, int]:
    """Hugo's window (its palabre runs in ``crashed``) hosts Consensus with two bots, Ana
    joins from ``others`` and the game starts: the window, Ana's peer, the host's port."""
    window = MainWindow(crashed, Launcher(profile="hugo"), SettingsStore("hugo"))
    qtbot.addWidget(window)
    window.show()
    start = window.start
    start.host_game.setCurrentIndex(start.host_game.findData("consensus"))
    start.host_bots.setValue(2)
    start.host_port.setValue(free_port())
    click(qtbot, start.host_button)
    lobby = window.lobby
    await until(lambda: lobby.invite.text().startswith("palabre://"), timeout=20)
    host_port = parse_invite(lobby.invite.text()).port
    ana = ana_joins(parse_invite(lobby.invite.text()))
    others.start_soon(ana.run)
    await until(lambda: lobby.ready.isEnabled() and not lobby.start.isEnabled())
    click(qtbot, lobby.ready)
    await until(lobby.start.isEnabled)
    click(qtbot, lobby.start)
    await until(lambda: window.stack.currentWidget() is window.table, timeout=20)
    return window, ana, host_port


@pytest.mark.parametrize("old_port", ["free", "taken"])
@qt_trio
async def test_a_crashed_host_rejoins_its_table_from_the_recent_tables(
    qtbot: Any, old_port: str
) -> None:
    """Its old port free, the host listens there again; taken meanwhile (by another
    program), it listens at any free port and still gets back through Ana."""
    squatter = trio.socket.socket()
    async with trio.open_nursery() as others:
        async with trio.open_nursery() as crashed:  # the host's palabre, cancelled at once
            window, ana, host_port = await host_for_ana(qtbot, crashed, others)
            await until(lambda: ana.table is not None and ana.port != 0)
            crashed.cancel_scope.cancel()  # no goodbye: the process is gone
        window.session = None  # a dead palabre says nothing more when its window goes

        recent = SettingsStore("hugo").settings.recent
        assert len(recent) == 1, recent
        table = recent[0]
        ana_address = f"127.0.0.1:{ana.port}"
        assert ana_address in table.addresses, table
        assert table.game == "consensus" and table.table_id

        async with open_window(qtbot, "hugo", activate=False) as again:
            start = again.start
            assert start.recent.count() == 1
            item = start.recent.item(0)
            assert ana_address in item.text(), item.text()
            assert item.data(RECENT_ROLE).table_id == table.table_id
            assert not start.rejoin_button.isEnabled()  # nothing chosen yet
            # the host's own old port first: it refuses, and Rejoin goes on to Ana's
            assert table.port == host_port  # where it listened, kept for the rejoin
            if old_port == "taken":
                await squatter.bind(("0.0.0.0", host_port))
                squatter.listen()
            start.store.remember_table(
                replace(table, peers=(f"127.0.0.1:{host_port}", ana_address))
            )
            start.show_recent()
            start.recent.setCurrentRow(0)
            assert start.rejoin_button.isEnabled()
            click(qtbot, start.rejoin_button)
            assert again.stack.currentWidget() is again.lobby, start.message.text()
            await until(lambda: again.stack.currentWidget() is again.table, timeout=20)
            assert not again.lobby.failure.isVisible()
            session = again.session
            assert session is not None
            assert session.snapshot.my_seat == 1
            await until(lambda: any(link.key == ana.me for link in session.peer.links))

            def kept() -> tuple[str, ...]:
                [entry] = SettingsStore("hugo").settings.recent  # the same table: one entry
                assert entry.table_id == table.table_id and entry.game == "consensus"
                return entry.addresses

            # rejoined as a joiner, listening at its old port again: the invite it gave
            # out and the address its players typed still lead to the table
            if old_port == "free":
                assert session.peer.port == host_port
            else:
                assert session.peer.port not in (0, host_port)
            own = f":{session.peer.port}"
            await until(lambda: any(where.endswith(own) for where in kept()))
            assert ana_address in kept()
        others.cancel_scope.cancel()
    squatter.close()
