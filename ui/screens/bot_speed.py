"""How fast the bots play: a choice of fast, normal or slow on the host and local game forms.

A bot waits a moment before each move so a person can follow the game; the choice is that
wait (``bot_delay``: what ``--bot-delay`` sets on the command line).  ``value`` and
``setValue`` speak milliseconds, like the spin box this replaced: a wait that is no preset
(a test's, a script's) is shown as its milliseconds and kept.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

__all__ = ["BotSpeedBox"]

PRESETS_MS = (("fast", 150), ("normal", 600), ("slow", 2000))
"""Each speed and the wait before a bot's move, in milliseconds."""


class BotSpeedBox(QComboBox):
    """Fast, normal (the default) or slow bots; ``value()`` is the wait in milliseconds."""

    def __init__(self) -> None:
        super().__init__()
        words = {"fast": self.tr("fast"), "normal": self.tr("normal"), "slow": self.tr("slow")}
        for speed, ms in PRESETS_MS:
            self.addItem(words[speed], ms)
        self.setToolTip(self.tr("How long the bots think before each move"))
        self.setValue(600)

    def value(self) -> int:
        """The wait before a bot's move, in milliseconds."""
        return int(self.currentData())

    def setValue(self, ms: int) -> None:
        """Choose the speed that waits ``ms``, adding it when no preset does."""
        index = self.findData(ms)
        if index < 0:
            self.addItem(self.tr("{ms} ms").format(ms=ms), ms)
            index = self.count() - 1
        self.setCurrentIndex(index)
