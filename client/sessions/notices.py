"""The table's own notices in the chat ("Ana offers a draw."), kept structured for translation.

A notice is a stable ``key`` and its parameters, plain strings (names, ply numbers, paths, and
free text from an engine or a peer such as an outcome summary or a refusal reason).  The
client has no Qt (import-linter forbids it), so it renders the English text from
``ENGLISH[key]`` itself; that text is what the terminal, the logs and every English-only
reader see.  The interface (``ui.notices``) holds a translatable template per key with the
same ``{placeholders}``, and falls back on the English text for a key it does not know.

Invariants: keys never change meaning once used (a new sentence gets a new key); every
template's placeholders are exactly the parameters ``notice`` is given for that key (a
missing one raises ``KeyError`` here, at the call site, not in the interface).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["ENGLISH", "Notice", "notice"]

ENGLISH: Mapping[str, str] = {
    # Draws and takebacks.
    "draw-offered": "{name} offers a draw.",
    "bots-accept-draw": "The bots accept the draw.",
    "bots-decline-draw": "The bots decline the draw; play goes on.",
    "takeback-asked": "{name} asks to take back ply {ply}.",
    "takeback-consented": "{name} consents to take back ply {ply}.",
    "bots-consent-takeback": "The bots consent.",
    "bot-declines-takeback": "{name} declines the takeback: {reason}.",
    "takeback-lapsed": "The takeback of ply {ply} lapsed: the game moved on.",
    # Resigning and the end.
    "resign-pending": "You resign; it takes effect when your turn comes.",
    "game-over": "Game over: {summary}",
    "lost-on-time": "{name} lost on time.",
    # Players present, away, removed or gone.
    "player-away": "{name} is away.",
    "player-back": "{name} is back.",
    "vote-remove": "{name} votes to remove {names}; bots will take their seats.",
    "player-left-table": "{name} left the table.",
    "voted-off": (
        "You were voted off the table (away or idle past its timeout): "
        "bots play your seats now, and you stay on to watch."
    ),
    "left-watching": ("You left this table: bots play your seats now, and you stay on to watch."),
    "ply-dropped": "Ply {ply} ({label}) was dropped: its player left.",
    "player-left": "{name} left the table ({reason}): the game cannot go on.",
    # The table's safety: refusals, warnings, evidence, halts.
    "refused": "Refused: {reason}",
    "warning": "Warning: {text}",
    "evidence-written": "Evidence written to {path}",
    "halted": "The table halted at ply {ply}: {message}",
    # Another player's HALT: its reason is that player's claim, never the table's finding.
    "halt-claim": (
        "{name}'s palabre stopped the table at ply {ply}, saying: “{claim}”. "
        "That is its claim, not what your palabre found: the verdict above is."
    ),
    # A flood of chat, pointing or other records outside the chain, dropped (one per burst).
    "flood-chat": "{name} is flooding the table; {count} lines dropped.",
    "flood-point": "{name} is flooding the table; {count} pointings dropped.",
    "flood-other": "{name} is flooding the table; {count} records dropped.",
    # The host's own words after the start (free text, nothing to translate).
    "host-says": "{text}",
}


@dataclass(frozen=True)
class Notice:
    """One notice: its key and its parameters, in a stable order."""

    key: str
    params: tuple[tuple[str, str], ...] = ()

    def values(self) -> dict[str, str]:
        return dict(self.params)

    def english(self) -> str:
        return ENGLISH[self.key].format_map(self.values())


def notice(key: str, **params: object) -> Notice:
    """The notice ``key`` with ``params`` made strings; raises KeyError for an unknown key or a
    missing parameter (checked by rendering the English text once)."""
    made = Notice(key, tuple((name, str(value)) for name, value in sorted(params.items())))
    made.english()
    return made
