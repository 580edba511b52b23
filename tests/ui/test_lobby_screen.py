"""The lobby screen, fed by a plain ``LobbyModel`` as the network table will feed it."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from client.node.lobby_model import LobbyModel, LobbySeat, LobbyView
from ui.screens.lobby import LobbyScreen

# Like napari: a warning in a UI test is an error.
pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

INVITE = "palabre:192.168.1.20:7447/T4BLE/K3QF-7ZPA"


class RecordedIntents:
    """Stands in for the network table's lobby intents, which do not exist yet."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def set_ready(self, ready: bool) -> None:
        self.calls.append(("ready", ready))

    def add_bot(self) -> None:
        self.calls.append(("add_bot", None))

    def remove_bot(self, seat: int) -> None:
        self.calls.append(("remove_bot", seat))

    def start(self) -> None:
        self.calls.append(("start", None))

    def leave(self) -> None:
        self.calls.append(("leave", None))


def lobby(qtbot: Any) -> tuple[LobbyScreen, LobbyModel, RecordedIntents]:
    seats = (
        LobbySeat(1, "Ana", "K3QF-7ZPA", is_mine=True),
        LobbySeat(
            2,
            "Bot 2",
            "M2XC-91QD",
            is_bot=True,
            ready=True,
            is_mine=True,
            runner="Ana",
            level="strong",
        ),
        LobbySeat(3),
        LobbySeat(4),
    )
    model = LobbyModel(LobbyView("consensus", invite=INVITE, seats=seats, is_host=True))
    screen = LobbyScreen()
    qtbot.addWidget(screen)
    intents = RecordedIntents()
    screen.set_model(model, intents)
    screen.show()
    return screen, model, intents


def test_seats_fingerprints_ready_marks_and_the_invite_are_shown(qtbot: Any) -> None:
    screen, _model, intents = lobby(qtbot)
    rows = [[screen.seats.item(row, column).text() for column in range(5)] for row in range(4)]
    assert rows[0] == ["1", "Ana (you)", "K3QF-7ZPA", "person", ""]
    assert rows[1] == ["2", "Bot 2 of Ana (strong)", "M2XC-91QD", "bot", "✓"]
    assert rows[2][1] == "— free —"
    assert screen.invite.text() == INVITE
    assert screen.title.text() == "You host this table: Consensus"
    assert screen.reach_hint.isVisible() and "firewall" in screen.reach_hint.text()
    assert not screen.start.isEnabled() and screen.add_bot.isEnabled()
    qtbot.mouseClick(screen.copy_invite, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == INVITE
    qtbot.mouseClick(screen.ready, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(screen.add_bot, Qt.MouseButton.LeftButton)
    screen.seats.selectRow(1)
    qtbot.mouseClick(screen.remove_bot, Qt.MouseButton.LeftButton)
    assert intents.calls == [("ready", True), ("add_bot", None), ("remove_bot", 2)]


def test_the_screen_follows_the_model_and_explains_a_failed_join(qtbot: Any) -> None:
    screen, model, intents = lobby(qtbot)
    seats = tuple(
        LobbySeat(seat.seat, seat.name or f"Bot {seat.seat}", is_bot=not seat.is_mine,
                  ready=True, is_mine=seat.is_mine)
        for seat in model.view.seats
    )  # fmt: skip
    model.update(seats=seats)
    assert screen.ready.isChecked() and screen.start.isEnabled()
    assert not screen.add_bot.isEnabled()  # no free seat left
    assert not screen.reach_hint.isVisible()  # and nobody left to let in
    qtbot.mouseClick(screen.start, Qt.MouseButton.LeftButton)
    assert intents.calls == [("start", None)]
    assert not screen.failure.isVisible()
    model.fail("the host's key K3QF-7ZPA is not the one the invite names", "wrong-host-key")
    assert screen.failure.isVisible() and not screen.start.isEnabled()
    assert not screen.reach_hint.isVisible()  # the failure says what to do instead
    assert screen.failure.text() == (
        "The host's key does not match the invite: this is not the table you were invited to."
        "\nthe host's key K3QF-7ZPA is not the one the invite names"
    )
    left: list[bool] = []
    screen.leaveRequested.connect(lambda: left.append(True))
    qtbot.mouseClick(screen.leave, Qt.MouseButton.LeftButton)
    assert left == [True] and intents.calls[-1] == ("leave", None)
    model.update(failure="", failure_kind="")
    assert not screen.reach_hint.isVisible()  # still full
    model.update(seats=(*seats[:3], LobbySeat(4)))  # a player left: seat 4 is free again
    assert screen.reach_hint.isVisible()
    model.update(is_host=False)
    assert not screen.reach_hint.isVisible()  # a joiner has nobody to let in
