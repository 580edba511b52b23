"""The cards around an exported animation: a first one saying what the game is, a last one
with the players and the result.

Each card is a picture of the animation's frame size: a title, then lines, wrapped and made
smaller until they fit (``ui.text_fit``), so a long result or many players are never cut —
the last frame of an animation used to end in "Seat 2 wins by holdi…".  Players are listed
with their seat colour, as on the board.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from client.sessions.replay import Replay
from ui.game_names import game_name
from ui.side_marks import paint_mark
from ui.text_fit import draw_fitted
from ui.theme import side_colour

__all__ = ["game_title", "result_card", "result_words", "title_card", "verdict_words"]

BACKGROUND = "#fafafa"
INK = "#222222"


def game_title(replay: Replay) -> str:
    return game_name(replay.engine.name)


def result_words(replay: Replay) -> str:
    result = replay.report.result
    if result is None:
        return QCoreApplication.translate(
            "Cards", "The game is not over: {plies} plies played."
        ).format(plies=replay.plies)
    summary = result.summary.rstrip(". ")
    return QCoreApplication.translate("Cards", "{summary}, after {plies} plies.").format(
        summary=summary, plies=replay.plies
    )


def verdict_words(replay: Replay) -> str:
    """What ``palabre verify`` found, in a sentence."""
    report = replay.report
    verdict = {
        0: QCoreApplication.translate("Cards", "Verified: valid and complete"),
        3: QCoreApplication.translate("Cards", "Verified: valid but incomplete"),
        1: QCoreApplication.translate("Cards", "Verified: invalid"),
    }.get(report.exit_code, QCoreApplication.translate("Cards", "Unreadable"))
    return QCoreApplication.translate(
        "Cards", "{verdict} ({signatures} signatures checked, {problems} problems)."
    ).format(verdict=verdict, signatures=report.signatures, problems=len(report.problems))


def _players(replay: Replay) -> list[tuple[int, str]]:
    return [
        (
            player.seat,
            QCoreApplication.translate("Cards", "Seat {seat}: {name}").format(
                seat=player.seat, name=player.name
            ),
        )
        for player in replay.players
    ]


def title_card(replay: Replay, width: int, height: int, date: str) -> QImage:
    """The first card: the game, the players, the date of the file and the verdict."""
    lines = [(0, date), *_players(replay), (0, verdict_words(replay))]
    return _card(width, height, game_title(replay), lines, replay.engine.name)


def result_card(replay: Replay, width: int, height: int) -> QImage:
    """The last card: the players and the result, never clipped."""
    return _card(width, height, result_words(replay), _players(replay), replay.engine.name)


def _card(width: int, height: int, title: str, lines: list[tuple[int, str]], game: str) -> QImage:
    card = QImage(width, height, QImage.Format.Format_RGB32)
    card.fill(QColor(BACKGROUND))
    painter = QPainter(card)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    margin = max(8, width // 16)
    inner = width - 2 * margin
    title_box = QRect(margin, margin, inner, (height - 2 * margin) * 2 // 5)
    painter.setPen(QColor(INK))
    draw_fitted(painter, title_box, title, max(12, width // 14), Qt.AlignmentFlag.AlignCenter, True)
    top = title_box.bottom() + margin // 2
    row = (height - margin - top) // max(1, len(lines))
    largest = max(10, min(row * 2 // 3, width // 24))
    swatch = max(6, largest * 2 // 3)
    for index, (seat, text) in enumerate(lines):
        box = QRect(margin + swatch * 2, top + index * row, inner - swatch * 2, row)
        if seat:
            middle = box.top() + (row - swatch) // 2
            colour, half = side_colour(game, seat), swatch / 2
            centre = QPointF(margin + half, middle + half)
            paint_mark(painter, game, seat, centre, half, colour, colour.darker(170))
        painter.setPen(QColor(INK))
        draw_fitted(painter, box, text, largest)
    painter.end()
    return card
