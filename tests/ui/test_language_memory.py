"""Switching the language many times costs no memory: the window closed for the new language
is let go with its screens, and the translators taken out are freed.

Each switch used to keep the old window (held by ``ui.app.main``) and both its translators
(parented to the application), about 5 MB a switch.  The test drives ``main`` itself, the
way a player picks a language on the start screen, and reads the process's resident size.
"""

from __future__ import annotations

import gc
import os
from typing import Any

import pytest
import qtrio
import trio
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from tests.ui.windows import until
from ui.app import MainWindow, main
from ui.i18n import current_language

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

SWITCHES = 13  # odd: the last one is to French


def resident_mb() -> float:
    """The process's resident size now (not its peak), in MB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def windows() -> list[MainWindow]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]


def translators() -> int:
    app = QApplication.instance()
    assert app is not None
    return sum(isinstance(child, QTranslator) for child in app.children())


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc")
@qt_trio
async def test_switching_the_language_again_and_again_keeps_no_old_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PALABRE_LANG", raising=False)
    monkeypatch.setenv("PALABRE_MDNS", "off")
    before = set(windows())
    sizes: list[float] = []
    held: list[int] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(main)
        shown: Any = None
        for switch in range(SWITCHES + 1):
            old = shown
            await until(lambda old=old: any(w.isVisible() and w is not old for w in windows()))
            shown = next(w for w in windows() if w.isVisible())
            del old
            for _ in range(3):
                await trio.sleep(0)  # let the closed window's last events run
            gc.collect()
            sizes.append(resident_mb())
            held.append(len(set(windows()) - before))
            if switch == SWITCHES:
                break
            language = "fr" if switch % 2 == 0 else "en"
            combo = shown.start.language
            combo.setCurrentIndex(combo.findData(language))
            combo.activated.emit(combo.currentIndex())  # what a click on the item sends
        assert current_language() == "fr"  # the switches happened
        shown.close()
        shown = None
    assert held == [1] * (SWITCHES + 1), "a window closed for another language is still held"
    assert translators() <= 2, "translators taken out are still alive"
    # The first switches warm caches (fonts, the French catalogue); after them, nothing grows.
    growth = (sizes[-1] - sizes[4]) / (SWITCHES - 4)
    assert growth < 0.5, f"{growth:.2f} MB a switch ({[round(s, 1) for s in sizes]})"
