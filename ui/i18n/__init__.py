"""The interface's language: French or English, with Qt's own translation machinery.

Every user-visible string in ``ui/`` goes through ``self.tr`` or
``QCoreApplication.translate``; ``scripts/i18n_update.py`` collects them with
``pyside6-lupdate`` into ``palabre_fr.ts`` (every string translated) and ``palabre_en.ts``
(only the plural forms, "%n peer(s)" -> "1 peer" / "2 peers"), and compiles both to the
``.qm`` files loaded here.  The rules texts (``ui/rules``) carry both languages as data and
ask ``current_language()`` which one to show.

Which language: ``PALABRE_LANG`` (``fr`` or ``en``) when set, else the player's choice on
the start screen (kept in ``<profile>/language``), else French when the system locale is
French and English otherwise.

Invariants: at most one palabre translator and one Qt base translator are installed at a
time; ``current_language()`` names the language whose translator is installed ("en" when
none could be loaded).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LanguagePreference",
    "current_language",
    "ensure_language",
    "install_language",
    "resolve_language",
    "system_language",
]

LANGUAGES = ("en", "fr")
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
"""Each language named in itself: a player looks for the name they can read."""
ENV_VAR = "PALABRE_LANG"
_LOCALES = {"en": "en_GB", "fr": "fr_FR"}
HERE = Path(__file__).resolve().parent

_installed: list[QTranslator] = []
_language = "en"


def system_language() -> str:
    """ "fr" when the system locale is French, else "en"."""
    return "fr" if QLocale.system().language() == QLocale.Language.French else "en"


def _valid(code: str | None) -> str | None:
    code = (code or "").strip().lower()[:2]
    return code if code in LANGUAGES else None


def resolve_language(saved: str | None = None) -> str:
    """The language to use: ``PALABRE_LANG``, else ``saved``, else the system's."""
    return _valid(os.environ.get(ENV_VAR)) or _valid(saved) or system_language()


def install_language(language: str) -> str:
    """Install the translators for ``language`` (replacing any); the language now in use."""
    global _language
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install_language needs a QApplication")
    for translator in _installed:
        app.removeTranslator(translator)
    # No parent: the translators live as long as ``_installed`` holds them.  Parented to the
    # app, a removed one stayed (with its catalogue) until the process ended.
    _installed.clear()
    language = _valid(language) or "en"
    ours = QTranslator()
    if not ours.load(f"palabre_{language}", str(HERE)):
        _language = "en"
        QLocale.setDefault(QLocale(_LOCALES["en"]))
        return _language
    app.installTranslator(ours)
    _installed.append(ours)
    qt_base = QTranslator()
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    # Qt's own strings (a line edit's context menu, standard buttons); English has none.
    if language != "en" and qt_base.load(f"qtbase_{language}", qt_dir):
        app.installTranslator(qt_base)
        _installed.append(qt_base)
    _language = language
    # Numbers follow the interface (a decimal comma in French), whatever the system says.
    QLocale.setDefault(QLocale(_LOCALES[language]))
    return _language


def ensure_language(saved: str | None = None) -> str:
    """Install the language ``resolve_language(saved)`` names, unless one is installed."""
    if _installed:
        return _language
    return install_language(resolve_language(saved))


def current_language() -> str:
    return _language


class LanguagePreference:
    """The player's choice on the start screen: "en", "fr", or "" (follow the system).

    One short text file next to the profile's settings; a missing or unreadable file means
    "follow the system", so a bad file never stops the client.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / "language"

    def load(self) -> str:
        try:
            return _valid(self.path.read_text(encoding="utf-8")) or ""
        except (OSError, UnicodeDecodeError):
            return ""

    def save(self, choice: str) -> None:
        choice = _valid(choice) or ""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        aside = self.path.with_suffix(".tmp")
        aside.write_text(choice + "\n", encoding="utf-8")
        aside.replace(self.path)
