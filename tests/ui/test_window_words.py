"""The peer's refusals name command-line options; the window never shows them (issue 21).

The reasons are the ones ``client.node.lobby``, ``client.node.peer_admission`` and
``client.node.joining`` give a joiner; the lobby screen shows them through ``window_words``."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.window_words import host_failure, window_words


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


WINDOW_SOURCES = ("client", "net", "ui")
"""What the window runs: its messages may come from any of these."""
TERMINAL_ONLY = (
    "client/commands/",
    "client/logs/export_request.py",
    "ui/entry.py",
    "ui/log_export",
)
"""The terminal's commands, the window's own command line and ``palabre log``'s exports:
terminal words, flags welcome (the launcher is the window's, not the terminal's)."""
WINDOW_TOO = {"client/commands/launcher.py"}
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


def _messages(path: Path) -> Iterator[str]:
    """The texts ``path`` builds (string constants and f-strings), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield "".join(
                part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.value


def test_no_message_the_window_can_show_names_a_flag() -> None:
    """Every text of the code the window runs that names a command-line option loses that
    clause on its way to the window (``window_words``, which the lobby, the start screen and
    the table's error line all go through): a new message with a flag the window would show
    fails here, with its words."""
    root = Path(__file__).resolve().parents[2]
    shown = []
    for folder in WINDOW_SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            name = str(path.relative_to(root))
            if name.startswith(TERMINAL_ONLY) and name not in WINDOW_TOO:
                continue
            for text in _messages(path):
                if " " in text and FLAG.search(text) and FLAG.search(window_words(text)):
                    shown.append(f"{path.relative_to(root)}: {text!r}")
    assert shown == []


def test_an_aside_guessing_at_a_flag_goes_too() -> None:
    reason = (
        "Ana did not prove it knows the table secret (an old invite, or a mistyped --secret?); "
        "ask the host for the invite"
    )
    assert window_words(reason) == (
        "Ana did not prove it knows the table secret; ask the host for the invite"
    )
