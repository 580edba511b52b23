"""The rules window: one game's rules, short, with figures drawn from engine positions.

Reachable from the start screen (the game chosen there) and from the table (the game being
played); a choice of game at the top switches between all of them.  The texts come from
``ui.rules`` in the interface's language (``ui.i18n.current_language``); the window itself
is translated like every screen.  It is not modal: a player can read while a game goes on.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QImage, QRegion, QTextDocument
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ui.control_names import name_screen
from ui.i18n import current_language
from ui.rules import Section, rule_games, rules_for

FIGURES_PER_ROW = 3


def picture(drawing: QWidget) -> QImage:
    """The figure as an image on a transparent ground, so it sits on the page's colour."""
    ratio = 2  # sharp on high-density screens; the page shows it at the widget's size
    image = QImage(drawing.size() * ratio, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    drawing.render(image, QPoint(), QRegion(), QWidget.RenderFlag.DrawChildren)
    return image


class RulesDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = ""
        self.figures: list[QWidget] = []
        """The drawings now shown, in reading order (tests look at them)."""
        self.captions: list[str] = []
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
        # One rich-text page: it flows and scrolls like a document, text can be selected and
        # copied, and each figure is an image of its widget (drawn once per showing).
        self.page = QTextBrowser()
        self.page.setOpenLinks(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.page, 1)
        layout.addWidget(buttons)
        self.resize(940, 760)
        self.choice.currentIndexChanged.connect(
            lambda index: self._show(self.choice.itemData(index))
        )
        name_screen(self)

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
        for figure in self.figures:
            figure.deleteLater()
        self.figures, self.captions = [], []
        document = QTextDocument(self.page)
        document.setDefaultStyleSheet("h3 { margin-top: 14px; } td.caption { color: #444444; }")
        html = [f"<h2>{rules.name.get(language)}</h2><p>{rules.intro.get(language)}</p>"]
        for section in rules.sections:
            html.append(self._section(section, language, document))
        document.setHtml("".join(html))
        self.page.setDocument(document)

    def _section(self, section: Section, language: str, document: QTextDocument) -> str:
        html = f"<h3>{section.title.get(language)}</h3>{section.body.get(language)}"
        if not section.figures:
            return html
        cells = []
        for figure in section.figures:
            drawing = figure.draw()
            number = len(self.figures)
            url = QUrl(f"figure:{number}")
            document.addResource(QTextDocument.ResourceType.ImageResource, url, picture(drawing))
            width, height = drawing.width(), drawing.height()
            caption = figure.caption.get(language)
            cells.append(
                f'<td valign="top" width="{max(width, 240)}">'
                f'<img src="{url.toString()}" width="{width}" height="{height}"><br>'
                f'<span style="color:#444444">{caption}</span></td>'
            )
            self.figures.append(drawing)
            self.captions.append(caption)
        rows = [
            "<tr>" + "".join(cells[start : start + FIGURES_PER_ROW]) + "</tr>"
            for start in range(0, len(cells), FIGURES_PER_ROW)
        ]
        return html + f'<table cellspacing="0" cellpadding="8">{"".join(rows)}</table>'
