"""The rules window: one game's rules, short, with figures drawn from engine positions.

Reachable from the start screen (the game chosen there) and from the table (the game being
played); a choice of game at the top switches between all of them.  The texts come from
``ui.rules`` in the interface's language (``ui.i18n.current_language``); the window itself
is translated like every screen.  It is not modal: a player can read while a game goes on.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ui.i18n import current_language
from ui.rules import GameRules, Section, rule_games, rules_for

FIGURES_PER_ROW = 3


class RulesDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = ""
        self.figures: list[QWidget] = []
        """The drawings now shown, in reading order (tests look at them)."""
        self.captions: list[QLabel] = []
        self.choice = QComboBox()
        language = current_language()
        for game in rule_games():
            rules = rules_for(game)
            assert rules is not None
            self.choice.addItem(rules.name.get(language), game)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Game")))
        top.addWidget(self.choice)
        top.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(buttons)
        self.resize(940, 760)
        self.choice.currentIndexChanged.connect(
            lambda index: self._show(self.choice.itemData(index))
        )

    def show_game(self, game: str) -> None:
        """Show the rules of ``game`` (the first game's if the client has none for it)."""
        index = max(0, self.choice.findData(game))
        if index != self.choice.currentIndex():
            self.choice.setCurrentIndex(index)  # shows it through currentIndexChanged
        elif self.game != self.choice.itemData(index):
            self._show(self.choice.itemData(index))
        self.show()
        self.raise_()
        self.activateWindow()

    def _show(self, game: str) -> None:
        rules = rules_for(game)
        if rules is None:
            return
        self.game = game
        language = current_language()
        self.setWindowTitle(self.tr("Rules — {game}").format(game=rules.name.get(language)))
        self.figures, self.captions = [], []
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(16, 12, 16, 16)
        column.addWidget(self._heading(rules, language))
        for section in rules.sections:
            column.addWidget(self._section(section, language))
        column.addStretch(1)
        self.scroll.setWidget(page)  # the previous page is deleted with its figures

    @staticmethod
    def _heading(rules: GameRules, language: str) -> QWidget:
        label = QLabel(
            f"<h2>{rules.name.get(language)}</h2><p>{rules.intro.get(language)}</p>",
        )
        label.setWordWrap(True)
        return label

    def _section(self, section: Section, language: str) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 8, 0, 4)
        text = QLabel(f"<h3>{section.title.get(language)}</h3>{section.body.get(language)}")
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(text)
        if section.figures:
            grid = QGridLayout()
            grid.setHorizontalSpacing(18)
            for index, figure in enumerate(section.figures):
                drawing = figure.draw()
                caption = QLabel(figure.caption.get(language))
                caption.setWordWrap(True)
                caption.setMaximumWidth(max(drawing.width(), 260))
                caption.setStyleSheet("color: #444444;")
                cell = QVBoxLayout()
                cell.addWidget(drawing, 0, Qt.AlignmentFlag.AlignLeft)
                cell.addWidget(caption, 0, Qt.AlignmentFlag.AlignTop)
                cell.addStretch(1)
                row, col = divmod(index, FIGURES_PER_ROW)
                grid.addLayout(cell, row, col, Qt.AlignmentFlag.AlignTop)
                self.figures.append(drawing)
                self.captions.append(caption)
            grid.setColumnStretch(FIGURES_PER_ROW, 1)
            layout.addLayout(grid)
        return box
