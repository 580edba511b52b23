"""The table as a screen reader hears it: the board's position as text, and the news.

``TableReader.follow`` is given every snapshot the table screen shows.  It puts on the
board's accessibility interface a name ("Consensus board") and, as its description, the
position shown (``ui.position_words``), whose turn it is and the plies since this player's
move (the table's own status and recent-plies lines), so a screen reader reads the board
as text when the focus reaches it.  Each new ply, chat line and ending is said through
the ``LiveAnnouncer`` (``ui.announcer``), in the same words as the table's lines.

Plies already there when the table opens (or when the reader is reset) are not said again;
at most ``BURST`` plies are said at once (a rejoin catching up says the last ones).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from client.sessions.session_api import ChatEntry, PlyView, SessionSnapshot
from ui.announcer import LiveAnnouncer
from ui.game_names import game_name
from ui.notation import readable_notation
from ui.notices import notice_text
from ui.ply_words import consensus_words
from ui.position_words import position_words

__all__ = ["BURST", "TableReader", "ply_sentence"]

BURST = 8

PositionBefore = Callable[[int], Any]
"""The position after a ply (0: the start), or None when this window never saw it."""


def ply_sentence(snapshot: SessionSnapshot, ply: PlyView, position: PositionBefore) -> str:
    """What ``ply`` did, in a sentence: ``Bea's GIGN killed your Syndicaliste on e4``
    (Consensus, from the position before it), ``Bea: Curaçao → Maracaïbo``, ``Bea resigns``."""
    who = snapshot.seat_name(ply.player)
    if ply.kind == "takeback":
        return QCoreApplication.translate("TableReader", "Ply {ply} taken back.").format(
            ply=ply.ply - 1
        )
    if ply.kind == "resign":
        return QCoreApplication.translate("TableReader", "{name} resigns.").format(name=who)
    if ply.kind == "draw":
        return QCoreApplication.translate("TableReader", "Draw agreed.")
    if ply.kind == "remove":
        return QCoreApplication.translate("TableReader", "Absent players are taken off the table.")
    if snapshot.engine.name == "consensus":
        before = position(ply.ply - 1)
        words = (
            None
            if before is None
            else consensus_words(before, ply.wire, snapshot.my_seat, snapshot.seat_name)
        )
        if words is not None:  # "your GIGN ...": a sentence starts with a capital
            return words[:1].upper() + words[1:] + "."
    return QCoreApplication.translate("TableReader", "{who}: {move}.").format(
        who=who, move=readable_notation(snapshot.engine, ply.notation)
    )


class TableReader:
    def __init__(self, announcer: LiveAnnouncer) -> None:
        self.announcer = announcer
        self.heard_plies: int | None = None
        """The plies already said (None: the next snapshot sets it without saying them)."""
        self.ending = ""

    def reset(self) -> None:
        """A new table: what it already holds is not news."""
        self.heard_plies, self.ending = None, ""

    def follow(
        self,
        snapshot: SessionSnapshot,
        board: QWidget,
        shown: Any,
        *,
        position: PositionBefore,
        status: str,
        recent: str,
        ending: str,
    ) -> None:
        """Describe ``board`` (showing the position ``shown``) and say what is new."""
        game = game_name(snapshot.engine.name)
        board.setAccessibleName(
            QCoreApplication.translate("TableReader", "{game} board").format(game=game)
        )
        parts = (
            position_words(snapshot.engine, shown, snapshot.seat_name),
            status,
            recent,
        )
        board.setAccessibleDescription(" ".join(part for part in parts if part))
        plies = snapshot.plies
        if self.heard_plies is None or self.heard_plies > len(plies):
            self.heard_plies = len(plies)
            self.ending = ending
            return
        for ply in plies[max(self.heard_plies, len(plies) - BURST) :]:
            self.announcer.announce(ply_sentence(snapshot, ply, position))
        self.heard_plies = len(plies)
        if ending and ending != self.ending:
            self.announcer.announce(ending)
        self.ending = ending

    def chat_line(self, entry: ChatEntry) -> None:
        """A chat line as it arrives; the game-over notice is the ending, said once."""
        if entry.seat is None:
            said = entry.notice
            if said is None or said.key != "game-over":
                self.announcer.announce(notice_text(entry))
            return
        self.announcer.announce(
            QCoreApplication.translate("TableReader", "{author} says: {text}").format(
                author=entry.author, text=entry.text
            )
        )
