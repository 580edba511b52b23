"""Make the README's replay pictures from a real networked Consensus game, offscreen.

    python scripts/screenshot_replay.py [--seed N] [--out-dir docs/img] [--size PX]

Four peers (Ana hosting, Bruno, Chloé and Dario joining) sit at one table over TCP on
loopback, in this process: real peers (``client.runtime.peer.Peer``), real keys, real game
files.  Bots play every seat (seeded: the same seed gives the same game).  The players argue
as people would, with the client's own intents: at a few plies the peer whose seat moves next
points at a capture it could make (an arrow) and at e5 (a highlight), and another peer says
something in the chat.  Then, from Ana's game file:

* ``consensus-replay.png``: the whole game as an animated PNG, one frame per ply and a last
  card with the result (exactly what ``palabre log export FILE --apng OUT`` writes), the
  arrows on the frames they were drawn on;
* ``replay-screen.png``: the replay screen on that file, at the first position someone
  pointed at.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import trio  # noqa: E402

from client.node.hosting import HostConfig  # noqa: E402
from client.node.joining import JoinConfig  # noqa: E402
from client.node.peer_node import NodeConfig  # noqa: E402
from client.runtime.peer import Peer  # noqa: E402
from client.tabletop.events import PlyApplied  # noqa: E402
from engines.consensus import ENGINE  # noqa: E402
from engines.consensus_board import E5, SQUARE_NAMES  # noqa: E402
from net.identity import load_profile_identity  # noqa: E402

NAMES = ("Ana", "Bruno", "Chloé", "Dario")
ARGUMENTS = {  # after ply n: (the peer that answers in the chat, what it says)
    4: (2, "{name}, if you take on {square} you open e5 for everyone."),
    9: (0, "Not {square} again! Somebody stop {name}."),
    15: (3, "{name} goes for {square}; I will not help."),
    22: (1, "Watch e5: whoever gets there first wins."),
}


def capture_or_first(state: Any) -> tuple[int, int]:
    """An arrow for the move a player would argue for: a capture if there is one."""
    moves = [tuple(ENGINE.move_to_wire(move)) for move in ENGINE.legal_moves(state)]
    captures = [wire for wire in moves if state.board[wire[1]]]
    chosen = (captures or moves)[0]
    return chosen[0], chosen[1]


def argue(peer: Peer, index: int, ply: int) -> None:
    """After ``ply``: the peer of the seat to move points, the chosen speaker talks."""
    table = peer.table
    if ply not in ARGUMENTS or table is None or table.head.ply != ply:
        return
    state = table.head.engine_state
    if ENGINE.outcome(state) is not None:
        return
    mover_key = table.head.seat_key(ENGINE.controller(state, ENGINE.to_move(state) or 1))
    arrow = capture_or_first(state)
    if table.me == mover_key:
        peer.act(lambda t, now: t.point([arrow], [E5], now))
    speaker, text = ARGUMENTS[ply]
    if index == speaker:
        name = next(spec.name for spec in table.start.peers if spec.key == mover_key)
        line = text.format(name=name, square=SQUARE_NAMES[arrow[1]])
        peer.act(lambda t, now: t.chat(line, now))


async def play(home: Path, seed: int) -> Path:
    """Play the table to its end; Ana's game file."""
    identities = [load_profile_identity(f"p{i}", home) for i in range(4)]
    host = Peer(
        identities[0],
        HostConfig(ENGINE, {"seats": 4}, NAMES[0]),
        NodeConfig(profile="p0", home=home, bot_me=True, bot_delay=0.15, seed=seed),
    )
    peers: list[Peer] = [host]

    def watch(peer: Peer, index: int) -> None:
        def on_event(event: Any) -> None:
            if isinstance(event, PlyApplied):
                ply = event.state.ply
                peer.call_soon(lambda: argue(peer, index, ply))

        peer.observers.append(on_event)

    async with trio.open_nursery() as nursery:
        await host.open(0)
        nursery.start_soon(host.run)
        for index in range(1, 4):
            joiner = Peer(
                identities[index],
                JoinConfig(("127.0.0.1", host.port), NAMES[index]),
                NodeConfig(
                    profile=f"p{index}", home=home, bot_me=True, bot_delay=0.15, seed=seed + index
                ),
            )
            peers.append(joiner)
            nursery.start_soon(joiner.run)
        for index, peer in enumerate(peers):
            watch(peer, index)
    (path,) = host.games.glob("*.palabre-log")
    return path


def pictures(log: Path, out_dir: Path, size: int) -> None:
    from PySide6.QtWidgets import QApplication

    from client.logs.verifier import verify_file
    from client.sessions.replay import Replay
    from ui.animation import Animator
    from ui.i18n import install_language
    from ui.screens.replay import ReplayScreen

    application = QApplication.instance() or QApplication([])
    install_language("en")
    verification = verify_file(log)
    print(f"{log.name}: {verification.report.status}, {verification.report.plies} plies")
    replay = Replay.build(verification)
    animation = out_dir / "consensus-replay.png"
    written = Animator(replay, size).finish(animation, "apng")
    print(f"wrote {animation} ({len(replay.frames)} frames, {written // 1024} KiB)")

    screen = ReplayScreen()
    screen.resize(1300, 820)
    screen.show()
    screen.open_file(log)
    while screen.worker is not None:
        application.processEvents()
    pointed = next(frame.ply for frame in replay.frames if frame.marks)
    screen.go_to(pointed)
    for _ in range(5):
        application.processEvents()
    shot = out_dir / "replay-screen.png"
    screen.grab().save(str(shot))
    print(f"wrote {shot} (ply {pointed})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out-dir", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--size", type=int, default=420, help="animation size in pixels")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="palabre-replay-"))
    log = trio.run(play, home, args.seed)
    pictures(log, args.out_dir, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
