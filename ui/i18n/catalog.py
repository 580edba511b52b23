"""Running Qt's translation tools on palabre, and reading their ``.ts`` files.

``update`` is what ``scripts/i18n_update.py`` does: ``pyside6-lupdate`` collects every
``tr``/``translate``/``QT_TRANSLATE_NOOP`` string of ``ui/`` into the ``.ts`` files (new
strings arrive marked unfinished, strings gone from the code are dropped), then
``pyside6-lrelease`` compiles them.  The tests run the same ``lupdate`` on a copy to prove
the committed files are complete.

``.ts`` files are written without source locations, so that editing a screen does not
rewrite the whole catalogue (and merges stay small); the context (class) and the English
text identify each message.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CATALOGUES",
    "Message",
    "lrelease",
    "lupdate",
    "placeholders",
    "read_ts",
    "sources",
    "update",
]

UI = Path(__file__).resolve().parent.parent
I18N = UI / "i18n"
CATALOGUES = {"fr": I18N / "palabre_fr.ts", "en": I18N / "palabre_en.ts"}
"""French holds every string; English only the plural forms (its singular/plural)."""
_LOCALES = {"fr": "fr_FR", "en": "en_GB"}
_PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%n|%\d")


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    comment: str
    numerus: bool
    translations: tuple[str, ...]
    """The translation, or each plural form; empty strings where nothing is written."""
    status: str
    """The ``type`` attribute: "" (finished), "unfinished", "vanished" or "obsolete"."""


def _tool(name: str) -> str:
    beside = Path(sys.executable).parent / f"pyside6-{name}"
    found = str(beside) if beside.exists() else shutil.which(f"pyside6-{name}")
    if found is None:
        raise FileNotFoundError(f"pyside6-{name} not found (it comes with PySide6-Essentials)")
    return found


def sources() -> list[Path]:
    """Every Python file of the interface, in a stable order."""
    return sorted(path for path in UI.rglob("*.py") if I18N not in path.parents)


def lupdate(ts: Path, language: str) -> str:
    """Bring ``ts`` up to date with the sources; lupdate's report."""
    command = [_tool("lupdate"), "-locations", "none", "-no-obsolete", "-silent"]
    command += ["-target-language", _LOCALES[language]]
    if language == "en":
        command.append("-pluralonly")
    command += [str(path) for path in sources()]
    command += ["-ts", str(ts)]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return result.stdout + result.stderr


def lrelease(ts: Path, qm: Path) -> str:
    result = subprocess.run(
        [_tool("lrelease"), "-silent", str(ts), "-qm", str(qm)],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout + result.stderr


def update() -> list[str]:
    """lupdate then lrelease every catalogue; one line of report per file."""
    report = []
    for language, ts in CATALOGUES.items():
        lupdate(ts, language)
        qm = ts.with_suffix(".qm")
        lrelease(ts, qm)
        messages = read_ts(ts)
        unfinished = sum(1 for message in messages if message.status == "unfinished")
        report.append(f"{ts.name}: {len(messages)} messages, {unfinished} unfinished -> {qm.name}")
    return report


def read_ts(ts: Path) -> list[Message]:
    messages = []
    for context in ElementTree.parse(ts).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None, f"{ts}: a message without translation"
            forms = translation.findall("numerusform")
            texts = tuple(form.text or "" for form in forms) or (translation.text or "",)
            messages.append(
                Message(
                    context=name,
                    source=message.findtext("source", ""),
                    comment=message.findtext("comment", ""),
                    numerus=message.get("numerus") == "yes",
                    translations=texts,
                    status=translation.get("type", ""),
                )
            )
    return messages


def placeholders(text: str) -> list[str]:
    """The ``{name}`` and ``%n`` markers a translation must keep, sorted."""
    return sorted(_PLACEHOLDER.findall(text))
