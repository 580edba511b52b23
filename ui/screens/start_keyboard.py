"""The start screen without a mouse: a Tab order that reads the screen as it is laid out,
and Enter on a focused button presses it (Space does too, as everywhere).

In the tables heard on the LAN, the arrows choose a row and Enter joins it (as its *Join*
button does, when that button may be pressed).

The order: your name, then the game against bots (game, its rules, seats, your seat, bots,
their speed, *Play*), the hosted table (game, options, seats, bots, speed, clock, port, invite only,
*Host*), joining (address or invite, *Join*, the recent tables, *Rejoin*), the tables heard on
the LAN, the game files, and the language last.  The name field has the keyboard first.
"""

from __future__ import annotations

import itertools

from PySide6.QtWidgets import QPushButton, QTableWidget, QWidget

__all__ = ["START_ORDER", "order_start"]

START_ORDER = (
    "name",
    "local_game",
    "rules_button",
    "local_seats",
    "local_my_seat",
    "local_bot_kind",
    "local_pace",
    "local_play",
    "host_game",
    "host_options",
    "host_seats",
    "host_bots",
    "host_bot_kind",
    "host_pace",
    "host_clock.choice",
    "host_clock.minutes",
    "host_clock.seconds",
    "host_port",
    "host_secret",
    "host_button",
    "join_target",
    "join_button",
    "recent",
    "rejoin_button",
    "found.table",
    "open_file",
    "language",
)
"""The start screen's controls in Tab order, by their names on the screen."""


def _control(start: QWidget, name: str) -> QWidget:
    found: object = start
    for part in name.split("."):
        found = getattr(found, part)
    assert isinstance(found, QWidget)
    return found


def order_start(start: QWidget) -> None:
    """Tab through ``start`` (the ``StartScreen``, which imports this module) in order."""
    chain = [_control(start, name) for name in START_ORDER]
    for before, after in itertools.pairwise(chain):
        QWidget.setTabOrder(before, after)
    # Outside a dialog a focused button takes only Space; Enter should press it as well.
    for button in start.findChildren(QPushButton):
        button.setAutoDefault(True)
    found = _control(start, "found.table")
    assert isinstance(found, QTableWidget)
    found.activated.connect(lambda index: _join_row(found, index.row()))
    _control(start, "name").setFocus()


def _join_row(table: QTableWidget, row: int) -> None:
    button = table.cellWidget(row, table.columnCount() - 1)
    if isinstance(button, QPushButton) and button.isEnabled():
        button.click()
