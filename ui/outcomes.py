"""How a game ended, in the player's language.

An engine's ``Outcome`` carries a reason code (``"power"``, ``"encirclement"`` …) and an
English ``summary`` written by the engine, with details such as the port or the score.  The
English interface shows that summary as it is; another language shows the sentence below
for the reason code, translated (with the score where the outcome carries one), and falls
back on the engine's summary for a reason it does not know.  The winners are named by the
caller, so these sentences name nobody.  An ending the table gives rather than the engine
(``TABLE_REASONS``: abandoned) has its sentence in every language, naming the players whose
absence ended it (their names as the window shows them, not the game file's key labels).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from client.rules.seat_words import with_seat_names
from engines import Outcome
from ui.i18n import current_language

__all__ = ["REASONS", "reason_text"]

# QT_TRANSLATE_NOOP only marks the text for lupdate (its stub returns ``object``).
REASONS: dict[tuple[str, str], object] = {
    ("consensus", "power"): QT_TRANSLATE_NOOP("Outcome", "Victory by holding power on e5."),
    ("consensus", "last-one-in"): QT_TRANSLATE_NOOP(
        "Outcome", "Victory: the last Président alive."
    ),
    ("consensus", "no-moves"): QT_TRANSLATE_NOOP(
        "Outcome", "A whole round passed with no legal move."
    ),
    ("consensus", "quiet"): QT_TRANSLATE_NOOP("Outcome", "150 plies in a row without a kill."),
    ("cognes", "last-flip"): QT_TRANSLATE_NOOP(
        "Outcome", "No coin can be flipped any more: the last legal flip wins."
    ),
    ("cognes", "last-one-in"): QT_TRANSLATE_NOOP("Outcome", "Every other player is out."),
    ("cognes", "no-flip"): QT_TRANSLATE_NOOP(
        "Outcome", "No coin can be flipped and nobody ever did."
    ),
    ("discorder", "board-full"): QT_TRANSLATE_NOOP(
        "Outcome", "The board is full: Jaune {jaune} – Noir {noir}."
    ),
    ("forbans", "gathering"): QT_TRANSLATE_NOOP(
        "Outcome", "Victory by gathering all six pieces on one port."
    ),
    ("forbans", "encirclement"): QT_TRANSLATE_NOOP(
        "Outcome", "Victory by encircling an enemy group."
    ),
    ("forbans", "no-move"): QT_TRANSLATE_NOOP("Outcome", "The other side had no legal move."),
    ("forbans", "draw-rule"): QT_TRANSLATE_NOOP(
        "Outcome", "Draw rule: Bleu could have won with one more move."
    ),
    ("forbans", "repetition"): QT_TRANSLATE_NOOP(
        "Outcome", "The same position came up for the third time."
    ),
    ("forbans", "move-limit"): QT_TRANSLATE_NOOP("Outcome", "The move limit was reached."),
    ("", "agreement"): QT_TRANSLATE_NOOP("Outcome", "Draw by agreement."),
    ("", "resignation"): QT_TRANSLATE_NOOP("Outcome", "A player resigned."),
    ("", "abandoned"): QT_TRANSLATE_NOOP(
        "Outcome", "The table was abandoned: {names} stayed away."
    ),
}
LEFT_ON_PURPOSE = QT_TRANSLATE_NOOP("Outcome", "The table was abandoned: {names} left the table.")
"""An abandoned table's sentence when every absent player left on purpose (a LEAVE)."""


TABLE_REASONS = {"abandoned"}
"""Endings the table gives, not the engine: their sentence names the players as the window
does (``absent``), in every language."""


def reason_text(
    game: str,
    outcome: Outcome,
    absent: Sequence[str] = (),
    left: bool = False,
    name_of: Callable[[int], str | None] = lambda _seat: None,
) -> str:
    """One sentence saying why ``outcome`` ended the game of ``game``; ``absent`` names the
    players whose absence ended an abandoned table, ``left`` when they all left on purpose;
    the engine's own words name each seat by ``name_of`` (its seated name), not "Seat 4"."""
    if current_language() == "en" and outcome.reason not in TABLE_REASONS:
        return with_seat_names(outcome.summary, name_of)
    source = REASONS.get((game, outcome.reason)) or REASONS.get(("", outcome.reason))
    if left and outcome.reason in TABLE_REASONS:
        source = LEFT_ON_PURPOSE
    if source is None:
        return with_seat_names(outcome.summary, name_of)
    scores = outcome.scores or ()
    jaune, noir = (scores[0], scores[1]) if len(scores) >= 2 else ("?", "?")
    return QCoreApplication.translate("Outcome", str(source)).format(
        jaune=jaune, noir=noir, names=", ".join(absent) or "?"
    )
