"""The peer's refusals name command-line options; the window never shows them (issue 21).

The reasons are the ones ``client.node.lobby``, ``client.node.peer_admission`` and
``client.node.joining`` give a joiner; the lobby screen shows them through ``window_words``."""

from __future__ import annotations

import pytest

from ui.screens.window_words import host_failure, window_words


@pytest.mark.parametrize(
    ("reason", "shown"),
    [
        (
            "the game has already started; join with --watch to follow it",
            "the game has already started",
        ),
        (
            "the table is full (4 seats); join with --watch to follow it",
            "the table is full (4 seats)",
        ),
        ("the host refused you: wrong game", "the host refused you: wrong game"),
    ],
)
def test_a_refusal_loses_its_flag_clause(reason: str, shown: str) -> None:
    assert window_words(reason) == shown


def test_a_host_failure_points_at_the_port_box_not_a_flag() -> None:
    text = host_failure(
        "listen:port-in-use", "address in use; choose another port with --port", 27001
    )
    assert "--" not in text and "Port box" in text and "27001" in text
    other = host_failure("listen:other", "it broke; choose another port with --port 7447", 27001)
    assert other == "The table could not be opened: it broke"
