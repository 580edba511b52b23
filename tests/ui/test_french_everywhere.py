"""Every screen in French on a French system (issue 21): the start screen, the host form,
the lobby, the table of each game (its players, moves, status and chat: "X abandonne", the
bots' names), the game's summary, the replay and the rules window.  Each screen is opened
through the real window with the French catalogue, and every text a player sees in it
(window titles, labels, buttons, boxes, list and table lines, tooltips aside) is read and
searched for English words: none is left."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QTableWidget,
    QTabWidget,
    QWidget,
)

from tests.ui.test_i18n import french_window
from tests.ui.windows import start_local, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

ENGLISH = re.compile(
    r"\b(the|you|your|and|of|to move|against|bots?|seat|resigns?|plies|ply|moves?|"
    r"players?|play|join|host|leave|table|draw|offer|take back|takeback|replay|export|"
    r"rules|game|games|open|start|wins?|lost|won|turn|waiting|ready|copy|close|back|"
    r"sensible|random|strong|easy|normal|with|for|not|is|are)\b",
    re.IGNORECASE,
)
"""English words a French screen never shows (a few are French too, and are left out:
"ready" is not, "table" is, so "table" only counts with an English neighbour)."""

FRENCH_TOO = {"table", "moves", "normal", "open", "start", "replay", "export"}


def visible_texts(widget: QWidget) -> list[str]:
    """Every text a player reads in ``widget`` and its visible children."""
    found = [widget.windowTitle()]
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        match child:
            case QLabel():
                found.append(re.sub(r"<[^>]+>", " ", child.text()))
            case QAbstractButton():
                found.append(child.text())
            case QGroupBox():
                found.append(child.title())
            case QComboBox():
                found += [child.itemText(i) for i in range(child.count())]
            case QLineEdit():
                found.append(child.placeholderText())
            case QListWidget():
                found += [child.item(i).text() for i in range(child.count())]
            case QTableWidget():
                found += [
                    item.text()
                    for row in range(child.rowCount())
                    for column in range(child.columnCount())
                    if (item := child.item(row, column)) is not None
                ]
                found += [
                    child.horizontalHeaderItem(c).text()
                    for c in range(child.columnCount())
                    if child.horizontalHeaderItem(c) is not None
                ]
            case QTabWidget():
                found += [child.tabText(i) for i in range(child.count())]
    return [text for text in found if text]


def english_in(texts: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """The texts with an English word in them (players' own names taken out first)."""
    left = []
    for text in texts:
        bare = text
        for name in names:
            bare = bare.replace(name, " ")
        words = {word.lower() for word in ENGLISH.findall(bare)} - FRENCH_TOO
        if words:
            left.append(f"{text!r}: {sorted(words)}")
    return left


def test_the_check_finds_english() -> None:
    assert english_in(["Zoé resigns"], ["Zoé"]) == ["'Zoé resigns': ['resigns']"]
    assert english_in(["Zoé abandonne", "Quitter la table", "Consensus"], ["Zoé"]) == []


@pytest.mark.parametrize("game", ["consensus", "forbans", "discorder", "cognes"])
@qt_trio
async def test_a_game_against_bots_speaks_french_from_start_to_summary(
    qtbot: Any, game: str
) -> None:
    async with french_window(qtbot) as window:
        start = window.start
        left = english_in(visible_texts(start))
        assert not left, "\n".join(left)
        session = start_local(qtbot, window, game)
        table = window.table
        await until(lambda: session.snapshot.my_turn)
        names = [seat.name for seat in session.snapshot.seats if seat.is_mine]
        left = english_in(visible_texts(window), names)
        assert not left, "\n".join(left)
        qtbot.mouseClick(table.resign_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.confirm_yes, Qt.MouseButton.LeftButton)
        await until(lambda: table.summary.isVisible())
        left = english_in(visible_texts(window), names)
        assert not left, "\n".join(left)

        qtbot.mouseClick(table.rules_button, Qt.MouseButton.LeftButton)
        rules = table.rules_dialog
        assert rules is not None and rules.isVisible()
        left = english_in(visible_texts(rules))
        assert not left, "\n".join(left)
        rules.close()


def test_the_lobby_and_its_seats_speak_french(qtbot: Any) -> None:
    from client.node.lobby_model import LobbyModel, LobbySeat, LobbyView
    from ui.i18n import install_language
    from ui.screens.lobby import LobbyScreen

    install_language("fr")
    seats = (
        LobbySeat(1, "Ana", "K3QF-7ZPA", is_mine=True),
        LobbySeat(2, "Bot", "Q2ZZ-8ABC", is_bot=True),
        LobbySeat(3),
    )
    screen = LobbyScreen()
    qtbot.addWidget(screen)
    screen.show()
    screen.set_model(LobbyModel(LobbyView("forbans", seats=seats, is_host=True)), None)
    left = english_in(visible_texts(screen), ["Ana", "Bot"])
    assert not left, "\n".join(left)
