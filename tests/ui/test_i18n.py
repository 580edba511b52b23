"""French and English: the catalogues are complete, the app picks the right language, and
the window speaks French when asked.

The catalogue checks run the real ``pyside6-lupdate`` on a copy of the committed ``.ts``
files (so a string added to ui/ without a translation fails here), and read ui/'s source
to find calls lupdate would miss and user-visible text not wrapped in ``tr``.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from ui.app import MainWindow, main
from ui.i18n import LanguagePreference, current_language, install_language, resolve_language
from ui.i18n.catalog import CATALOGUES, Message, lrelease, lupdate, placeholders, read_ts, sources
from ui.outcomes import REASONS

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def keyed(messages: list[Message]) -> dict[tuple[str, str, str], Message]:
    return {(m.context, m.source, m.comment): m for m in messages}


# --- the catalogues ---------------------------------------------------------------------
@pytest.mark.parametrize("language", sorted(CATALOGUES))
def test_lupdate_finds_nothing_new_and_nothing_unfinished(language: str, tmp_path: Path) -> None:
    committed = CATALOGUES[language]
    copy = tmp_path / committed.name
    shutil.copy(committed, copy)
    lupdate(copy, language)
    after = read_ts(copy)
    assert after, "lupdate found no string at all"
    unfinished = [m.source for m in after if m.status]
    assert unfinished == [], f"{committed.name}: not translated: {unfinished}"
    empty = [m.source for m in after if not all(text.strip() for text in m.translations)]
    assert empty == [], f"{committed.name}: empty translations: {empty}"
    # Nothing lupdate sees in ui/ is missing from the committed file, nothing stale remains.
    assert keyed(after).keys() == keyed(read_ts(committed)).keys()


def test_every_plural_has_its_english_forms() -> None:
    french = {key for key, m in keyed(read_ts(CATALOGUES["fr"])).items() if m.numerus}
    english = keyed(read_ts(CATALOGUES["en"]))
    assert french and french == english.keys()
    for message in english.values():
        singular, plural = message.translations
        assert singular != plural or "frozen" in message.source, message.source


@pytest.mark.parametrize("language", sorted(CATALOGUES))
def test_translations_keep_every_placeholder(language: str) -> None:
    for message in read_ts(CATALOGUES[language]):
        wanted = placeholders(message.source)
        for text in message.translations:
            assert placeholders(text) == wanted, (message.source, text)


@pytest.mark.parametrize("language", sorted(CATALOGUES))
def test_the_compiled_catalogues_match_the_sources(language: str, tmp_path: Path) -> None:
    ts = CATALOGUES[language]
    fresh = tmp_path / ts.with_suffix(".qm").name
    lrelease(ts, fresh)
    assert fresh.read_bytes() == ts.with_suffix(".qm").read_bytes(), (
        "run scripts/i18n_update.py and commit the .qm"
    )


# --- the sources: what lupdate cannot see -------------------------------------------------
TEXT_CALLS = {
    "QLabel",
    "QPushButton",
    "QGroupBox",
    "QCheckBox",
    "QRadioButton",
    "QListWidgetItem",
    "setText",
    "setPlaceholderText",
    "setToolTip",
    "setWindowTitle",
    "setSuffix",
    "setPrefix",
    "addRow",
    "addItem",
    "say",
}
TEXT_KEYWORDS = {"placeholderText", "toolTip", "windowTitle", "text"}
NOT_WORDS = {"palabre"}  # the program's name is the same in every language


def literal_words(node: ast.expr) -> str | None:
    """The text of a string literal or f-string with letters in it, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            part.value for part in node.values if isinstance(part, ast.Constant)
        )  # the fixed parts of an f-string
    else:
        return None
    words = re.sub(r"<[^>]*>|&\w+;", "", text)  # markup is not words
    return text if any(char.isalpha() for char in words) and text not in NOT_WORDS else None


def call_name(node: ast.Call) -> str:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name == "translate":  # QCoreApplication.translate, not QLineF.translate
        owner = func.value if isinstance(func, ast.Attribute) else None
        if not (isinstance(owner, ast.Name) and owner.id.endswith("Application")):
            return ""
    return name


class Calls(ast.NodeVisitor):
    """Every translation call (with its context) and every untranslated text argument."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.classes: list[str] = []
        self.found: list[tuple[str, str, bool, int]] = []  # context, source, plural, line
        self.problems: list[str] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def where(self, node: ast.AST) -> str:
        return f"{self.path.relative_to(Path.cwd())}:{getattr(node, 'lineno', 0)}"

    def visit_Call(self, node: ast.Call) -> None:
        name = call_name(node)
        if name in ("tr", "translate", "QT_TRANSLATE_NOOP"):
            self.translation(node, name)
        elif name in TEXT_CALLS:
            arguments = node.args[:1] if name in ("addRow", "addItem") else node.args
            for argument in arguments:
                words = literal_words(argument)
                if words is not None:
                    self.problems.append(f"{self.where(node)}: {words!r} is not translated")
        for keyword in node.keywords:
            if keyword.arg in TEXT_KEYWORDS and literal_words(keyword.value) is not None:
                self.problems.append(f"{self.where(node)}: {keyword.arg}= is not translated")
        self.generic_visit(node)

    def translation(self, node: ast.Call, name: str) -> None:
        arguments = list(node.args)
        if name == "tr":
            context = self.classes[-1] if self.classes else ""
        else:
            first = arguments.pop(0) if arguments else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                self.problems.append(f"{self.where(node)}: the context must be a literal")
                return
            context = first.value
        source = arguments[0] if arguments else None
        if isinstance(source, ast.JoinedStr):
            self.problems.append(f"{self.where(node)}: an f-string cannot be translated")
            return
        if not (isinstance(source, ast.Constant) and isinstance(source.value, str)):
            return  # a variable holding a QT_TRANSLATE_NOOP string, looked up at run time
        plural = len(arguments) >= 3 or any(k.arg == "n" for k in node.keywords)
        if plural and name != "tr":
            self.problems.append(
                f"{self.where(node)}: lupdate reads plurals only from self.tr(text, '', n)"
            )
        if plural and isinstance(arguments[2] if len(arguments) >= 3 else None, ast.Call):
            self.problems.append(f"{self.where(node)}: lupdate misses a call as plural count")
        if name == "tr" and not self.classes:
            self.problems.append(f"{self.where(node)}: tr() outside a class has no context")
        self.found.append((context, source.value, plural, node.lineno))


def scan() -> Iterator[Calls]:
    for path in sources():
        calls = Calls(path)
        calls.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        yield calls


def test_every_translation_call_is_in_the_french_catalogue() -> None:
    catalogue = {(m.context, m.source): m for m in read_ts(CATALOGUES["fr"])}
    problems: list[str] = []
    count = 0
    for calls in scan():
        problems += calls.problems
        for context, source, plural, line in calls.found:
            count += 1
            message = catalogue.get((context, source))
            if message is None:
                problems.append(f"{calls.path.name}:{line}: {source!r} ({context}) not in .ts")
            elif message.numerus != plural:
                problems.append(f"{calls.path.name}:{line}: {source!r} plural mismatch")
    assert count > 150  # the scan sees the interface, not nothing
    assert problems == []


def test_the_source_scan_catches_untranslated_text(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "class Screen:\n"
        "    def build(self, n):\n"
        "        QLabel('Hello')\n"
        "        self.button.setText(f'Play {n}')\n"
        "        QCoreApplication.translate('Screen', '%n game(s)', '', n)\n"
        "        self.tr(f'Seat {n}')\n"
        "        QLabel(self.tr('Fine'))\n",
        encoding="utf-8",
    )
    calls = Calls(bad)
    calls.path = Path.cwd() / "bad.py"
    calls.visit(ast.parse(bad.read_text(encoding="utf-8")))
    assert len(calls.problems) == 4, calls.problems
    assert calls.found == [("Screen", "%n game(s)", True, 5), ("Screen", "Fine", False, 7)]


# --- which language ---------------------------------------------------------------------
def test_the_language_is_the_environment_then_the_choice_then_the_system(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PALABRE_LANG", raising=False)
    assert resolve_language("fr") == "fr"
    assert resolve_language("en") == "en"
    assert resolve_language("") in ("en", "fr")  # the machine's locale
    monkeypatch.setenv("PALABRE_LANG", "en")
    assert resolve_language("fr") == "en"
    monkeypatch.setenv("PALABRE_LANG", "fr")
    assert resolve_language("en") == "fr"
    monkeypatch.setenv("PALABRE_LANG", "klingon")  # not a language palabre speaks: ignored
    assert resolve_language("fr") == "fr"


def test_the_choice_is_kept_and_a_bad_file_means_the_system(tmp_path: Path) -> None:
    preference = LanguagePreference(tmp_path / "profile")
    assert preference.load() == ""
    preference.save("fr")
    assert LanguagePreference(tmp_path / "profile").load() == "fr"
    preference.save("")
    assert preference.load() == ""
    preference.path.write_bytes(b"\xff\xfe garbage")
    assert preference.load() == ""


def run_palabre(home: Path, **env: str) -> str:
    full = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PALABRE_QUIT_AFTER_MS": "300"}
    full.update(PALABRE_HOME=str(home), LC_ALL="", LANGUAGE="", **env)
    full.pop("DISPLAY", None)
    if "PALABRE_LANG" not in env:
        full.pop("PALABRE_LANG", None)
    result = subprocess.run(
        [sys.executable, "-m", "ui.entry"], env=full, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stderr


def test_palabre_speaks_french_on_a_french_system_unless_told_otherwise(tmp_path: Path) -> None:
    assert "(language: fr)" in run_palabre(tmp_path, LANG="fr_FR.UTF-8")
    assert "(language: en)" in run_palabre(tmp_path, LANG="fr_FR.UTF-8", PALABRE_LANG="en")
    LanguagePreference(tmp_path / "default").save("fr")
    assert "(language: fr)" in run_palabre(tmp_path, LANG="C.UTF-8")


# --- the window in French -----------------------------------------------------------------
async def until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.005)


@asynccontextmanager
async def french_window(qtbot: Any) -> AsyncIterator[MainWindow]:
    install_language("fr")
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        qtbot.addWidget(window)
        window.show()
        try:
            yield window
        finally:
            window.close()
            nursery.cancel_scope.cancel()


def texts(widget: Any) -> set[str]:
    found = {label.text() for label in widget.findChildren(QLabel)}
    return found | {button.text() for button in widget.findChildren(QPushButton)}


@qt_trio
async def test_the_start_and_table_screens_speak_french(qtbot: Any) -> None:
    async with french_window(qtbot) as window:
        assert current_language() == "fr"
        start = window.start
        shown = texts(start)
        assert {"Jouer contre les robots", "Rejoindre", "Règles…", "Langue"} <= shown
        assert "Play against bots" not in shown
        assert start.local_bot_kind.currentText() == "normal"  # as the bots' names say
        assert start.local_bot_kind.currentData() == "sensible"
        start.local_pace.setValue(0)
        qtbot.mouseClick(start.local_play, Qt.MouseButton.LeftButton)
        table = window.table
        assert window.stack.currentWidget() is table
        await until(lambda: "À vous de jouer." in table.status.text())
        status = table.status.text()
        assert "Personne ne règne en e5" in status
        assert "définitif" not in status and "pair" not in status and "condensé" not in status
        details = table.details.text()
        assert "Coup 0/0 définitif" in details and "1 pair" in details
        assert {"Abandonner…", "Proposer la nulle", "Quitter la table", "Joueurs"} <= texts(table)
        assert table.board is not None
        assert "cliquez une de vos pièces" in table.board.prompt.text()  # type: ignore[attr-defined]
        assert "(vous)" in table.players.item(0).text()
        me = window.session.snapshot.seat_name(1) if window.session else ""
        bot = f"Robot 2 de {me} (normal)"  # the sensible bot plays at the normal level
        assert table.players.item(1).text().lstrip("▶ ") == bot
        assert "(vous)" not in table.players.item(1).text()
        assert [start.local_pace.itemText(i) for i in range(3)] == ["rapide", "normale", "lente"]


@qt_trio
async def test_choosing_french_on_the_start_screen_rebuilds_the_window_in_french(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PALABRE_LANG", raising=False)

    def windows() -> list[MainWindow]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]

    before = set(windows())
    async with trio.open_nursery() as nursery:
        nursery.start_soon(main)
        await until(lambda: any(w.isVisible() for w in set(windows()) - before))
        first = next(w for w in set(windows()) - before if w.isVisible())
        first.resize(1000, 700)
        combo = first.start.language
        assert combo.itemText(combo.findData("fr")) == "Français"
        combo.setCurrentIndex(combo.findData("fr"))
        combo.activated.emit(combo.currentIndex())  # what a click on the item sends
        await until(lambda: any(w.isVisible() for w in set(windows()) - before - {first}))
        second = next(w for w in set(windows()) - before - {first} if w.isVisible())
        assert not first.isVisible() and current_language() == "fr"
        assert second.size() == first.size()
        assert second.start.local_play.text() == "Jouer contre les robots"
        assert second.start.language.currentData() == "fr"
        assert LanguagePreference(second.store.path.parent).load() == "fr"
        second.close()  # closing for good ends main()
    assert not any(w.isVisible() for w in windows())


def test_every_outcome_reason_is_said_in_french() -> None:
    install_language("fr")
    from engines import Outcome
    from ui.outcomes import reason_text

    for (game, reason), source in REASONS.items():
        outcome = Outcome((1,), False, reason, "English summary", (5, 3))
        french = reason_text(game, outcome)
        assert french != "English summary" and french != source, (game, reason)
        assert "{" not in french
    unknown = Outcome((1,), False, "something-new", "English summary")
    assert reason_text("consensus", unknown) == "English summary"
    install_language("en")
    assert reason_text("consensus", Outcome((1,), False, "power", "Seat 1 wins.")) == (
        "Seat 1 wins."
    )


def test_the_lobby_speaks_french(qtbot: Any) -> None:
    from client.node.lobby_model import LobbyModel, LobbySeat, LobbyView
    from ui.screens.lobby import LobbyScreen

    install_language("fr")
    seats = (LobbySeat(1, "Ana", "K3QF-7ZPA", is_mine=True), LobbySeat(2))
    screen = LobbyScreen()
    qtbot.addWidget(screen)
    screen.set_model(LobbyModel(LobbyView("consensus", seats=seats, is_host=True)), None)
    assert screen.title.text() == "Ouverture de votre table…"  # not listening yet
    opened = LobbyView("consensus", invite="palabre://x", seats=seats, is_host=True)
    screen.set_model(LobbyModel(opened), None)
    headers = [screen.seats.horizontalHeaderItem(c).text() for c in range(5)]
    assert headers == ["Siège", "Nom", "Empreinte", "Type", "Prêt"]
    assert screen.seats.item(0, 1).text() == "Ana (vous)"
    assert screen.seats.item(1, 1).text() == "— libre —"
    assert screen.title.text() == "Vous accueillez cette table\u00a0: Consensus"  # French spacing
    assert {"Je suis prêt", "Lancer la partie", "Copier l'invitation"} <= texts(screen)
