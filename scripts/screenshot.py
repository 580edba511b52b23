"""Render the table screen with a mid-game Consensus position to a PNG, offscreen.

    python scripts/screenshot.py [--out docs/img/consensus-table.png] [--seed N] [--lang fr]
    python scripts/screenshot.py --rules [--out docs/img/consensus-rules.png] [--lang fr]

A real local game through the real window: seat 1 ("Ana") is played by a seeded random bot
standing in for the person, seats 2-4 by the session's own random bots, until the first
position on Ana's turn where a Président rules e5 and several corpses lie on the board.  Then
one of Ana's pieces is clicked so its destinations show, a few chat lines are sent, and the
window is grabbed.  The same seed gives the same picture.

``--lang fr`` shows the French interface (the default output is then
``consensus-table-fr.png``); ``--rules`` grabs the rules window on Consensus instead, scrolled
to the Pouvoir and its figures.
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
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402

from client.bots import RandomBot  # noqa: E402
from client.bots.match import play_match  # noqa: E402
from client.sessions.local_game import LocalGame  # noqa: E402
from engines.consensus import ENGINE  # noqa: E402
from engines.consensus_board import DEAD  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402
from ui.screens.rules import RulesDialog  # noqa: E402

ME = 1
CHAT = {
    "en": (
        "Whoever holds e5 now has to be stopped, and fast.",
        "Who is with me? Two turns, that is all it takes.",
    ),
    "fr": (
        "Celui qui tient e5 doit être arrêté, et vite.",
        "Qui est avec moi ? Deux tours, il n'en faut pas plus.",
    ),
}


def interesting(state: Any) -> bool:
    corpses = sum(1 for code in state.board if code & DEAD)
    mover = ENGINE.controller(state, ENGINE.to_move(state) or 1)
    return ENGINE.power_status(state).ruler is not None and corpses >= 4 and mover == ME


def first_interesting_ply(seed: int) -> int | None:
    """The ply after which the game of ``seed`` first reaches an interesting position."""
    bots = {seat: RandomBot(seed * 100 + seat) for seat in range(2, 5)}
    bots[ME] = RandomBot(seed)
    found: list[int] = []

    def look(record: Any, state: Any) -> None:
        if not found and ENGINE.outcome(state) is None and interesting(state):
            found.append(record.ply)

    play_match(ENGINE, {"seats": 4}, bots, on_ply=look)
    return found[0] if found else None


async def shoot(out: Path, seed: int, stop: int, language: str) -> None:
    install_language(language)
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1400, 900)
        window.show()
        game = LocalGame(
            ENGINE, {"seats": 4}, my_seat=ME, player_name="Ana", bot_kind="random",
            seed=seed, bot_delay=0,
        )  # fmt: skip
        window.open_session(game)
        me = RandomBot(seed)
        while game.snapshot.ply < stop:
            snapshot = game.snapshot
            if snapshot.my_turn:
                game.move(ENGINE.move_to_wire(me.choose(ENGINE, snapshot.state)))
            await trio.sleep(0.001)
        for text in CHAT[language]:
            game.chat(text)
        board = window.table.board
        state = game.snapshot.state
        # Select the piece with the most destinations, to show the step view.
        piece = max(
            ENGINE.movable_pieces(state), key=lambda sq: len(ENGINE.destinations(state, sq))
        )
        board.click_square(piece)
        await trio.sleep(0.2)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise SystemExit(f"could not write {out}")
        print(f"wrote {out} (seed {seed}, after ply {stop})")
        window.close()
        nursery.cancel_scope.cancel()


async def shoot_rules(out: Path, language: str) -> None:
    install_language(language)
    dialog = RulesDialog()
    dialog.resize(960, 1000)
    dialog.show()
    dialog.show_game("consensus")
    await trio.sleep(0.2)
    # The Pouvoir and its figures: the GIGN that kills the ruler and must leave e5, and more.
    found = dialog.page.find("The Pouvoir (e5)" if language == "en" else "Le Pouvoir (e5)")
    bar = dialog.page.verticalScrollBar()
    if found:
        bar.setValue(dialog.page.cursorRect().top() + bar.value() - 20)
        cursor = dialog.page.textCursor()
        cursor.clearSelection()
        dialog.page.setTextCursor(cursor)
    await trio.sleep(0.2)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not dialog.grab().save(str(out)):
        raise SystemExit(f"could not write {out}")
    print(f"wrote {out}")
    dialog.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=None, help="default: the first that fits")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.add_argument("--rules", action="store_true", help="the rules window, not the table")
    args = parser.parse_args()
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    images = ROOT / "docs" / "img"
    if args.rules:
        qtrio.run(shoot_rules, args.out or images / f"consensus-rules{suffix}.png", args.lang)
        return 0
    out = args.out or images / f"consensus-table{suffix}.png"
    seeds = [args.seed] if args.seed is not None else list(range(50))
    for seed in seeds:
        stop = first_interesting_ply(seed)
        if stop is not None:
            qtrio.run(shoot, out, seed, stop, args.lang)
            return 0
    print("no interesting position found for those seeds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
