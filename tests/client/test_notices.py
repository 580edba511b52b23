"""The table's notices: a key and plain parameters, rendered in English by the client, and
carried by the chat entries a local game makes (the interface translates them, tests/ui)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from client.sessions.local_game import LocalGame
from client.sessions.notices import ENGLISH, Notice, notice
from client.sessions.session_api import ChatEntry
from tests.toy_engine import RACE


def test_a_notice_renders_its_english_text_with_its_parameters() -> None:
    said = notice("takeback-asked", name="Ana", ply=7)
    assert said == Notice("takeback-asked", (("name", "Ana"), ("ply", "7")))
    assert said.english() == "Ana asks to take back ply 7."
    path = Path("/tmp/evidence-12.json")
    assert notice("evidence-written", path=path).english() == f"Evidence written to {path}"
    # Free text from a peer is kept as given, braces included.
    assert notice("refused", reason="bad {sig}").english() == "Refused: bad {sig}"


def test_an_unknown_key_or_a_missing_parameter_fails_where_the_notice_is_made() -> None:
    with pytest.raises(KeyError):
        notice("no-such-notice")
    with pytest.raises(KeyError):
        notice("draw-offered")


def test_every_template_names_only_plain_placeholders() -> None:
    for key, text in ENGLISH.items():
        fields = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
        assert all(name.isidentifier() for name in fields), key


def test_a_notice_entry_equals_the_same_text_without_its_structure() -> None:
    said = notice("bots-consent-takeback")
    entry = ChatEntry(3, None, "table", said.english(), said)
    assert entry == ChatEntry(3, None, "table", "The bots consent.")


def test_the_local_game_notices_carry_their_key() -> None:
    game = LocalGame(RACE, {"seats": 2}, player_name="Ana", bot_kind="random")
    game.offer_draw()
    notices = [(entry.notice, entry.text) for entry in game.snapshot.chat]
    assert notices == [
        (notice("draw-offered", name="Ana"), "Ana offers a draw."),
        (notice("bots-decline-draw"), "The bots decline the draw; play goes on."),
    ]
