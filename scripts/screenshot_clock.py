"""Picture a clocked table: its lobby, then the game with both clocks running down.

    xvfb-run -a python scripts/screenshot_clock.py [--out docs/img/discorder-clock.png]

A real window hosts Discorder on loopback from its start screen with a 15-second clock
(custom: 0.25 min + 0 s); Bruno's peer (a real joining ``Peer`` with its own key, played by a
bot) joins with the invite.  The lobby, which says the clock and what a clock between two
machines cannot do, is grabbed; Ana starts the game and plays a few moves (a seeded choice
among the legal ones, sent as the board sends them) while Bruno's bot answers; once her own
clock is under 10 seconds (tenths, in red, and the warning above the lists) the table is
grabbed.  Both grabs are saved side by side in one PNG.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-clock-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402
from screenshot_lobby import host_with_bruno, until  # noqa: E402  (a sibling script)
from screenshot_network import save_side_by_side  # noqa: E402  (a sibling script)

from client.commands.launcher import Launcher  # noqa: E402
from client.profile.settings import SettingsStore  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402


async def shoot(out: Path, seed: int, moves: int) -> None:
    install_language("en")
    rng = random.Random(seed)
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery, Launcher(profile="ana"), SettingsStore("ana"))
        window.resize(1000, 560)
        window.show()
        await host_with_bruno(
            window, nursery, bots=0, bot_delay=0.8, game="discorder", clock="0.25+0"
        )
        lobby = window.lobby
        await until(lambda: "two computers" in lobby.clock.text(), "the two-machine note")
        lobby.ready.click()
        await until(lobby.start.isEnabled, "every player ready")
        await trio.sleep(0.3)
        lobby_shot = window.grab().toImage()
        lobby.start.click()
        await until(lambda: window.stack.currentWidget() is window.table, "the table")
        window.resize(1300, 820)
        session = window.session
        assert session is not None
        played = 0
        while played < moves:
            await until(lambda: session.snapshot.my_turn, "Ana's turn")
            snapshot = session.snapshot
            engine = snapshot.engine
            legal = engine.legal_moves(snapshot.state)
            await trio.sleep(0.6 + rng.random())  # Ana thinks a little
            session.move(engine.move_to_wire(legal[rng.randrange(len(legal))]))
            played += 1
        await until(lambda: session.snapshot.my_turn, "Ana's turn")
        players = window.table.players

        def low() -> bool:
            face = players.clock_of(0)
            return face is not None and face.running and face.low

        await until(low, "Ana's clock under 10 s")
        await trio.sleep(0.35)
        table_shot = window.grab().toImage()
        save_side_by_side(out, lobby_shot, table_shot)
        faces = [players.clock_of(row) for row in range(players.count())]
        print(f"wrote {out} (clocks {[face.text for face in faces if face]})")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "discorder-clock.png")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--moves", type=int, default=3, help="Ana's moves before the picture")
    args = parser.parse_args()
    qtrio.run(shoot, args.out, args.seed, args.moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
