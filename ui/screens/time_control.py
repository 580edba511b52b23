"""The time control on the host form: no clock, a usual one, or the host's own.

The usual ones are written as players write them, minutes each plus seconds added per move
(``5+3``); *custom* opens a field for the minutes (a fraction is fine: 0.1 is six seconds)
and one for the seconds added.  ``spec`` gives what START pins (``client.rules.clock``), the
very ``ClockSpec`` that ``palabre host --clock`` makes from the same text.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QHBoxLayout, QLabel, QSpinBox, QWidget

from client.rules.clock import ClockSpec, parse_time_control

__all__ = ["PRESETS", "TimeControlBox"]

PRESETS = ("1+0", "3+2", "5+3", "10+5", "15+10")
"""The usual time controls, fastest first (minutes + seconds added per move)."""

NONE = ""
CUSTOM = "custom"


class TimeControlBox(QWidget):
    """A choice of time control; ``spec()`` is None for no clock."""

    def __init__(self) -> None:
        super().__init__()
        self.choice = QComboBox()
        self.choice.addItem(self.tr("No clock"), NONE)
        for preset in PRESETS:
            minutes, seconds = preset.split("+")
            self.choice.addItem(
                self.tr("{minutes} min + {seconds} s a move").format(
                    minutes=minutes, seconds=seconds
                ),
                preset,
            )
        self.choice.addItem(self.tr("Custom…"), CUSTOM)
        self.choice.setToolTip(
            self.tr("Each player's time for the game, and the seconds added after each move")
        )
        self.minutes = QDoubleSpinBox()
        self.minutes.setRange(0.05, 1440)
        self.minutes.setDecimals(2)
        self.minutes.setSingleStep(0.5)
        self.minutes.setValue(5)
        self.minutes.setSuffix(self.tr(" min"))
        self.seconds = QSpinBox()
        self.seconds.setRange(0, 3600)
        self.seconds.setValue(3)
        self.seconds.setSuffix(self.tr(" s a move"))
        # A screen reader names each part: the form's label names only the first.
        self.choice.setAccessibleName(self.tr("Clock"))
        self.minutes.setAccessibleName(self.tr("Minutes for each player"))
        self.seconds.setAccessibleName(self.tr("Seconds added after each move"))
        self.custom = QWidget()
        custom_row = QHBoxLayout(self.custom)
        custom_row.setContentsMargins(0, 0, 0, 0)
        custom_row.addWidget(self.minutes)
        custom_row.addWidget(QLabel("+"))
        custom_row.addWidget(self.seconds)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.choice)
        row.addWidget(self.custom, 1)
        self.custom.hide()
        self.choice.currentIndexChanged.connect(
            lambda _index: self.custom.setVisible(self.choice.currentData() == CUSTOM)
        )

    def choose(self, text: str) -> None:
        """Choose ``text`` (``5+3``; ``""`` for no clock), as custom when it is no preset."""
        index = self.choice.findData(text)
        if index >= 0:
            self.choice.setCurrentIndex(index)
            return
        minutes, _plus, seconds = text.partition("+")
        self.minutes.setValue(float(minutes))
        self.seconds.setValue(int(seconds or 0))
        self.choice.setCurrentIndex(self.choice.findData(CUSTOM))

    def text(self) -> str:
        """The time control as players write it (``0.1+0``), empty for no clock."""
        chosen = str(self.choice.currentData())
        if chosen != CUSTOM:
            return chosen
        return f"{self.minutes.value():g}+{self.seconds.value()}"

    def spec(self) -> ClockSpec | None:
        """What START pins for this choice (``ValueError`` saying why it cannot be one)."""
        text = self.text()
        return parse_time_control(text) if text else None
