"""The rules window: every game in both languages, its figures drawn, reachable from the start
screen and the table; and each figure is checked by the engine it draws."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QImage, QTextDocument

from client.commands.launcher import Launcher
from client.profile.settings import SettingsStore
from client.sessions.local_game import LocalGame
from engines import engine_names, find_engine
from engines.consensus_board import DEAD, E5
from ui.i18n import install_language
from ui.rules import Text, rule_games, rules_for
from ui.rules.cognes_figures import cognes_figure
from ui.rules.consensus_figures import board_of, describe, move_figure, square
from ui.rules.discorder_figures import discorder_figure
from ui.rules.forbans_figures import forbans_figure, port
from ui.screens.rules import RulesDialog, picture
from ui.screens.start import StartScreen
from ui.screens.table import TableScreen

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

ImageResource = QTextDocument.ResourceType.ImageResource.value
EMPTY_DISCORDER = "\n".join(["........"] * 7)


def colours(image: QImage) -> int:
    """How many different colours the picture holds (a blank one holds one)."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    seen = set()
    for y in range(0, image.height(), 3):
        for x in range(0, image.width(), 3):
            seen.add(image.pixel(x, y))
    return len(seen)


def all_texts(game: str) -> list[Text]:
    rules = rules_for(game)
    assert rules is not None
    found = [rules.name, rules.intro]
    for section in rules.sections:
        found += [section.title, section.body, *(figure.caption for figure in section.figures)]
    return found


def test_every_shipped_game_has_rules_in_both_languages() -> None:
    assert set(rule_games()) == set(engine_names())
    for game in rule_games():
        for text in all_texts(game):
            assert text.en.strip() and text.fr.strip()
        rules = rules_for(game)
        assert rules is not None and rules.game == game
        # Everything but the game's name reads differently in French.
        assert all(text.en != text.fr for text in all_texts(game)[1:]), game
    assert rules_for("chess") is None


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", rule_games())
def test_the_rules_window_shows_each_game_with_its_figures(
    qtbot: Any, game: str, language: str
) -> None:
    install_language(language)
    dialog = RulesDialog()
    qtbot.addWidget(dialog)
    dialog.show_game(game)
    rules = rules_for(game)
    assert rules is not None
    assert dialog.game == game and dialog.isVisible()
    name = rules.name.get(language)
    assert dialog.windowTitle() == ("Règles — " if language == "fr" else "Rules — ") + name
    shown = dialog.page.toPlainText().replace("\u00a0", " ")
    for section in rules.sections:
        assert section.title.get(language).replace("\u00a0", " ") in shown
    expected = [figure for section in rules.sections for figure in section.figures]
    assert len(dialog.figures) == len(expected) >= 3
    assert dialog.captions == [f.caption.get(language) for f in expected]
    plain = [caption.replace("\u00a0", " ").replace("<b>", "") for caption in dialog.captions]
    assert name in shown and all(caption[:20] in shown for caption in plain)
    for figure in dialog.figures:
        assert figure.width() > 100 and figure.height() > 100
        assert colours(figure.grab().toImage()) > 6, f"{game}: a figure is blank"
        assert colours(picture(figure)) > 6, f"{game}: a figure's image on the page is blank"
    images = dialog.page.document().resource(ImageResource, QUrl(f"figure:{len(expected) - 1}"))
    assert isinstance(images, QImage) and not images.isNull()  # the page holds the last one


def test_switching_games_in_the_window_replaces_the_figures(qtbot: Any) -> None:
    dialog = RulesDialog()
    qtbot.addWidget(dialog)
    dialog.show_game("no-such-game")  # falls back on the first game
    assert dialog.game == rule_games()[0]
    dialog.choice.setCurrentIndex(dialog.choice.findData("discorder"))
    assert dialog.game == "discorder"
    assert "Discorder" in dialog.windowTitle()
    assert len(dialog.figures) == 4


def test_the_start_screen_opens_the_rules_of_the_chosen_game(qtbot: Any) -> None:
    start = StartScreen(Launcher(), SettingsStore())
    qtbot.addWidget(start)
    start.local_game.setCurrentIndex(start.local_game.findData("forbans"))
    qtbot.mouseClick(start.rules_button, Qt.MouseButton.LeftButton)
    dialog = start.rules_dialog
    assert dialog is not None and dialog.isVisible() and dialog.game == "forbans"
    start.local_game.setCurrentIndex(start.local_game.findData("cognes"))
    qtbot.mouseClick(start.rules_button, Qt.MouseButton.LeftButton)
    assert start.rules_dialog is dialog and dialog.game == "cognes"


def test_the_table_opens_the_rules_of_the_game_being_played(qtbot: Any) -> None:
    table = TableScreen()
    qtbot.addWidget(table)
    game = LocalGame(find_engine("discorder"), {}, bot_kind="random", bot_delay=5)
    table.set_session(game)
    qtbot.mouseClick(table.rules_button, Qt.MouseButton.LeftButton)
    dialog = table.rules_dialog
    assert dialog is not None and dialog.isVisible() and dialog.game == "discorder"
    table.clear_session()
    game.leave()


# --- the figures are the engine's ---------------------------------------------------------
def test_consensus_figures_draw_what_the_engine_does() -> None:
    # A Président's kill: the corpse may go to any empty square but e5.
    figure = move_figure("P1c3 S2f6 P2h8", "c3 f6 b6", view="a1:h8", choices_after=2)
    assert describe(figure) == "c3>f6 f6>b6"
    assert E5 not in figure.targets and square("c3") in figure.targets
    # A GIGN's victim falls back on the GIGN's origin: an arrow each way, nothing to choose.
    figure = move_figure("G1b2 H2b6 P2h8", "b2 b6", view="a1:e7")
    assert describe(figure) == "b2>b6 b6>b2"
    # A GIGN killing the ruler must leave e5, never back to where its victim's corpse lies.
    figure = move_figure("G1e2 P2e5 S3f4", "e2 e5 c7", view="a1:h8", choices_after=2)
    assert describe(figure) == "e2>e5 e5>e2 e5>c7"
    assert square("e2") not in figure.targets and figure.ruler_square == E5
    # A Haussaire's victim is crossed where it stands.
    figure = move_figure("H1b6 P2e5", "b6 e6 e5", view="a2:g8")
    assert figure.crosses == (E5,)
    assert board_of("p2e5")[E5] & DEAD
    with pytest.raises(ValueError, match="does not offer e5"):
        move_figure("G1a5 P2h8", "a5 e5", view="a1:i9")  # only a Président stops on e5
    with pytest.raises(ValueError, match="does not offer e5"):
        move_figure("P1c3 S2f6", "c3 f6 e5", view="a1:i9")  # a corpse never goes on e5


def test_forbans_figures_are_checked_by_the_engine() -> None:
    figure = forbans_figure("F+2 G+1 B-1 K-1", liberties_of="F")
    assert sorted(figure.liberties) == sorted(port(name) for name in "CEHJ")
    figure = forbans_figure("A+1 E+1 L+4 B-1 F-2 J-3", show_danger=True)
    assert figure.threatened == (port("A"), port("E")) and figure.last_liberties == (port("I"),)
    with pytest.raises(ValueError, match="encirclement"):
        forbans_figure("A+1 E+1 L+4 B-1 F-2 J-3", move="J K", expect="encirclement")
    with pytest.raises(ValueError, match="illegal"):
        forbans_figure("A+2 L+4 B-1 F-1 I-1 K-3", mover="bleu", move="A E", expect="")


def test_cognes_figures_are_checked_by_the_engine() -> None:
    figure = cognes_figure(((0, 700), (-480, 420)), (0, 400), "short")
    assert figure.ghost is not None and not figure.ghost.allowed
    assert figure.ghost.gain == 42  # the 4.2 mm the caption names
    figure = cognes_figure(((0, 700), (-200, 400)), (0, 540), "foul", after=True)
    assert figure.frozen[:2] == (True, True) and figure.ghost is None
    with pytest.raises(ValueError, match="'legal'"):
        cognes_figure(((0, 700), (-200, 400)), (0, 540), "legal")


def test_discorder_figures_are_checked_by_the_engine() -> None:
    column = "N.......\n" + "J.......\n" * 6
    figure = discorder_figure(column, "a3|4", runs="secured secured")
    assert [len(run.cells) for run in figure.runs] == [3, 3]
    with pytest.raises(ValueError, match="given-away"):
        discorder_figure(column, runs="secured secured")  # without the peg: one run of six
    figure = discorder_figure(EMPTY_DISCORDER, show_pegs=True)
    assert figure.site_choices == frozenset()  # a peg must follow something
