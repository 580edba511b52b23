"""Shared helpers for the GUI tests: a private PALABRE_HOME, English unless a test asks for
French, and hand-made Consensus states."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engines.consensus import ENGINE
from engines.consensus_board import board_from_diagram
from ui.i18n import install_language


@pytest.fixture(autouse=True)
def palabre_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("PALABRE_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def english(qapp: Any) -> None:
    """Every test starts in English, whatever the machine's locale (the app's own choice
    is tested in test_i18n.py); a test that switches language is put back by this."""
    install_language("en")


def consensus_state(diagram: str, **changes: Any) -> Any:
    """A Consensus state with the board of ``diagram`` (rank 9 first), seat 1 to move."""
    start = ENGINE.initial_state({"seats": 4})
    return replace(start, board=board_from_diagram(diagram), **changes)
