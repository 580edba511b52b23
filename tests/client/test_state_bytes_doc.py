"""docs/STATE_BYTES.md against the engines: every worked example in it, recomputed.

The page is what another implementation computes digests from, so nothing in it may drift
from the code: the integer encodings, each game's field list, each initial position's bytes
and engine digest, and the chain digests of plies 0-2 of the real logs in docs/examples/
(which must also be what the peers of those games signed in their ACKs).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path

import pytest

from client.logs.verifier import verify_file
from client.rules.net_adapter import open_envelope
from engines import engine_names, find_engine
from engines.canonical import encode_value
from net.logfile import read_log

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = (DOCS / "STATE_BYTES.md").read_text(encoding="utf-8")
PLY_KINDS = {"MOVE", "RESIGN", "DRAW", "REMOVE", "TAKEBACK"}


def blake(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=32).digest()


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", PAGE, re.S)


def fields(block: str) -> dict[str, str]:
    """``name: value`` lines; the hex lines after ``bytes:`` are joined into its value."""
    values: dict[str, str] = {}
    last = ""
    for line in block.splitlines():
        name, colon, value = line.partition(": ")
        if line.endswith(":"):
            last = line[:-1]
            values[last] = ""
        elif colon and not re.fullmatch(r"[0-9a-f]+", line):
            values[name] = value
        else:
            values[last] += line.strip()
    return values


def game_sections() -> dict[str, str]:
    """ruleset -> the text of its section."""
    parts = re.split(r"^## \d+\. .*\(`([a-z]+/\d+)`\)$", PAGE, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_game_has_a_section_with_both_examples() -> None:
    sections = game_sections()
    assert sorted(sections) == sorted(find_engine(name).ruleset for name in engine_names())
    for text in sections.values():
        assert text.count("```state-bytes") == 1
        assert text.count("```chain") == 1


def test_the_integer_examples_are_the_encoding() -> None:
    (block,) = blocks("int-bytes")
    lines = block.strip().splitlines()
    assert len(lines) >= 10
    for line in lines:
        value, _, hexed = line.partition(" = ")
        assert encode_value(int(value)).hex(" ") == hexed, line
    nested = encode_value((1, (2, None))).hex()
    sentence = re.search(r"`\(1, \(2, None\)\)`, is\s+`([0-9a-f ]+)`", PAGE)
    assert sentence is not None
    assert sentence.group(1).replace(" ", "") == nested


@pytest.mark.parametrize("block", blocks("state-bytes"), ids=lambda b: fields(b)["game"])
def test_an_initial_position_is_the_engines(block: str) -> None:
    example = fields(block)
    engine = find_engine(example["game"])
    assert engine.ruleset == example["ruleset"]
    state = engine.initial_state(json.loads(example["options"]))
    encoded = engine.encode(state)
    assert encoded.hex() == example["bytes"]
    assert len(encoded) == int(example["length"])
    # The digest as the page defines it, and as the engine computes it.
    assert blake(engine.ruleset.encode() + b"\0" + encoded).hex() == example["engine digest"]
    assert engine.digest(state).hex() == example["engine digest"]


@pytest.mark.parametrize("ruleset", sorted(game_sections()))
def test_the_field_table_is_the_state_in_declaration_order(ruleset: str) -> None:
    (engine,) = (find_engine(n) for n in engine_names() if find_engine(n).ruleset == ruleset)
    state = engine.initial_state(dict(engine.sample_params[0]))
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", game_sections()[ruleset], re.M)
    assert [int(number) for number, _ in rows] == list(range(1, len(rows) + 1))
    assert [name for _, name in rows] == [f.name for f in dataclasses.fields(state)]


@pytest.mark.parametrize("block", blocks("chain"), ids=lambda b: fields(b)["log"])
def test_the_chain_of_a_real_log(block: str) -> None:
    example = fields(block)
    records = [open_envelope(raw) for raw in read_log(DOCS / example["log"]).records]
    start = records[0]
    assert start.record_hash.hex() == example["START record hash"]
    assert start.record_hash == blake(start.envelope)
    engine = find_engine(start.body["game"])
    state = engine.initial_state(start.body["options"])
    assert engine.digest(state).hex() == example["engine digest 0"]
    chain = {0: blake(bytes(32) + start.record_hash + engine.digest(state))}
    plies = {}
    for record in records[1:]:
        if record.kind in PLY_KINDS:
            plies.setdefault(record.body["ply"], record)
    for ply in (1, 2):
        record = plies[ply]
        described = re.fullmatch(
            r"MOVE seat (\d+) move (\[[\d, ]*\]) \(.*\)", example[f"ply {ply}"]
        )
        assert described is not None
        assert record.kind == "MOVE"
        assert record.body["seat"] == int(described.group(1))
        assert list(record.body["move"]) == json.loads(described.group(2))
        assert record.record_hash.hex() == example[f"record hash {ply}"]
        state = engine.apply(state, engine.move_from_wire(record.body["move"]))
        assert engine.digest(state).hex() == example[f"engine digest {ply}"]
        chain[ply] = blake(chain[ply - 1] + record.record_hash + engine.digest(state))
    for ply in (0, 1, 2):
        assert chain[ply].hex() == example[f"chain {ply}"]
        # ... and it is what the table signed: the next ply's prev, every peer's ACK.
        assert plies[ply + 1].body["prev"] == chain[ply]
        acks = [r for r in records if r.kind == "ACK" and r.body["ply"] == ply]
        assert len(acks) == len(start.body["peers"])
        assert {ack.body["digest"] for ack in acks} == {chain[ply]}


def page_encoding(value: object) -> bytes:
    """Section 1 of the page, as another implementation reads it (not engines.canonical):
    tags N T F I L, an integer's length (bits(|v|) + 8) div 8, a list's count on 4 bytes."""
    if value is None:
        return b"N"
    if value is True or value is False:
        return b"T" if value else b"F"
    if isinstance(value, int):
        length = (abs(value).bit_length() + 8) // 8
        return b"I" + bytes([length]) + value.to_bytes(length, "big", signed=True)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = tuple(getattr(value, f.name) for f in dataclasses.fields(value))
    assert isinstance(value, tuple), value
    return b"L" + len(value).to_bytes(4, "big") + b"".join(map(page_encoding, value))


@pytest.mark.parametrize("game", ["consensus", "forbans", "cognes", "discorder"])
def test_the_page_s_encoding_is_the_engines_at_every_ply_of_a_real_game(game: str) -> None:
    """Every position of the example game (negative counts, big repetition keys, signed
    coordinates and all), encoded by the page's rules alone, gives the engine's bytes."""
    records = [
        open_envelope(raw) for raw in read_log(DOCS / "examples" / f"{game}.palabre-log").records
    ]
    engine = find_engine(game)
    state = engine.initial_state(records[0].body["options"])
    plies: dict[int, object] = {}
    for record in records[1:]:
        if record.kind in PLY_KINDS:
            plies.setdefault(record.body["ply"], record.body.get("move"))
    assert page_encoding(state) == engine.encode(state)
    for ply in range(1, len(plies) + 1):  # a demo game: bots' MOVEs to the end
        state = engine.apply(state, engine.move_from_wire(plies[ply]))
        assert page_encoding(state) == engine.encode(state), ply
    assert engine.outcome(state) is not None and len(plies) > 10


@pytest.mark.parametrize("game", ["consensus", "forbans", "cognes", "discorder"])
def test_each_example_log_verifies(game: str) -> None:
    report = verify_file(DOCS / "examples" / f"{game}.palabre-log").report
    assert report.exit_code == 0 and report.problems == [], report.lines()
    assert report.game == game and report.ended
