"""The conformance suite every engine passes (DESIGN.md section 2, STYLE.md "OpenSpiel").

Parametrized over every registered engine and each of its ``sample_params``: random
playouts end without raising, every legal move round-trips through wire and notation,
``apply`` accepts exactly the legal moves and never mutates its input, the step-by-step
view matches the flat list, digests agree across processes, and the golden playthrough
files still replay to the same digests.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import AnyEngine, IllegalMove, InvalidMove, InvalidParams, engine_names, find_engine
from engines.playthrough import golden_name, playout, playthrough_text

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "data" / "golden"
GOLDEN_SEEDS = (0, 1, 2)

CASES = [
    pytest.param(name, index, id=f"{name}-{index}")
    for name in engine_names()
    for index in range(len(find_engine(name).sample_params))
]
ENGINES = [pytest.param(name, id=name) for name in engine_names()]


def _setup(name: str, index: int) -> tuple[AnyEngine, dict[str, int | str]]:
    engine = find_engine(name)
    return engine, dict(engine.sample_params[index])


def _sampled_states(
    engine: AnyEngine, params: dict[str, int | str], seed: int, every: int
) -> list[Any]:
    states = list(playout(engine, params, seed))
    return [*states[::every], states[-1]]


def _wire(engine: AnyEngine, move: Any) -> tuple[int, ...]:
    return tuple(engine.move_to_wire(move))


@pytest.mark.parametrize(("name", "index"), CASES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playout_ends_and_every_move_round_trips(name: str, index: int, seed: int) -> None:
    engine, params = _setup(name, index)
    for state in playout(engine, params, seed):
        before = engine.encode(state)
        assert len(engine.digest(state)) == 32
        seat = engine.to_move(state)
        if engine.outcome(state) is not None:
            assert seat is None
            continue
        assert seat is not None and 1 <= seat <= engine.seat_count(state)
        assert 1 <= engine.controller(state, seat) <= engine.seat_count(state)
        moves = engine.legal_moves(state)
        assert moves, "a game that is not over must offer a move"
        wires = [_wire(engine, move) for move in moves]
        assert len(set(wires)) == len(wires), "legal_moves lists a move twice"
        for move, wire in zip(moves, wires, strict=True):
            assert all(type(choice) is int for choice in wire)
            assert engine.move_from_wire(list(wire)) == move
            text = engine.format_move(state, move)
            assert engine.parse_move(state, text) == move, text
        assert engine.encode(state) == before, "listing or formatting moves mutated the state"


@pytest.mark.parametrize(("name", "index"), CASES)
@pytest.mark.parametrize("seed", range(3))
def test_apply_accepts_exactly_the_legal_moves(name: str, index: int, seed: int) -> None:
    engine, params = _setup(name, index)
    rng = random.Random(seed)
    for state in _sampled_states(engine, params, seed, every=7):
        if engine.outcome(state) is not None:
            with pytest.raises(IllegalMove):
                engine.apply(state, engine.move_from_wire(_any_wire(engine, params, rng)))
            continue
        before = engine.encode(state)
        legal = {_wire(engine, move) for move in engine.legal_moves(state)}
        for wire in legal:
            engine.apply(state, engine.move_from_wire(list(wire)))
        candidates = [_mutate(rng, list(wire)) for wire in sorted(legal) for _ in range(3)]
        for wire in candidates:
            try:
                move = engine.move_from_wire(wire)
            except InvalidMove:
                continue
            if tuple(engine.move_to_wire(move)) in legal:
                engine.apply(state, move)
            else:
                with pytest.raises(IllegalMove):
                    engine.apply(state, move)
        assert engine.encode(state) == before, "apply mutated its input"


def _any_wire(engine: AnyEngine, params: dict[str, int | str], rng: random.Random) -> list[int]:
    first = engine.legal_moves(engine.initial_state(params))[0]
    return engine.move_to_wire(first)


def _mutate(rng: random.Random, wire: list[int]) -> list[int]:
    kind = rng.randrange(4)
    if kind == 0 and wire:
        i = rng.randrange(len(wire))
        wire[i] += rng.choice((-10, -9, -1, 1, 8, 9, 10))
    elif kind == 1 and wire:
        wire[rng.randrange(len(wire))] = rng.randrange(-2, 120)
    elif kind == 2 and len(wire) > 1:
        wire.pop()
    else:
        wire.append(rng.randrange(0, 100))
    return wire


@pytest.mark.parametrize(("name", "index"), CASES)
def test_step_by_step_view_lists_the_same_moves(name: str, index: int) -> None:
    engine, params = _setup(name, index)
    for state in _sampled_states(engine, params, seed=11, every=5):
        if engine.outcome(state) is not None:
            continue
        expected = [_wire(engine, move) for move in engine.legal_moves(state)]
        assert _walk_choices(engine, state, ()) == expected


def _walk_choices(engine: AnyEngine, state: Any, prefix: tuple[int, ...]) -> list[tuple[int, ...]]:
    nexts, complete = engine.next_choices(state, prefix)
    assert not (complete and nexts), f"{prefix} is a move and a prefix of another"
    found = [prefix] if complete else []
    for choice in nexts:
        found += _walk_choices(engine, state, (*prefix, choice))
    return found


@pytest.mark.parametrize(("name", "index"), CASES)
def test_resign_and_draw_are_table_actions(name: str, index: int) -> None:
    engine, params = _setup(name, index)
    state = engine.initial_state(params)
    before = engine.encode(state)
    drawn = engine.agree_draw(state)
    outcome = engine.outcome(drawn)
    assert outcome is not None and outcome.draw and not outcome.winners
    assert engine.to_move(drawn) is None
    seat = engine.to_move(state)
    assert seat is not None
    resigned = engine.resign(state, seat)
    assert engine.digest(resigned) != engine.digest(state)
    assert engine.encode(state) == before
    with pytest.raises(IllegalMove):
        engine.apply(drawn, engine.legal_moves(state)[0])


@pytest.mark.parametrize("name", ENGINES)
def test_bad_params_are_refused_with_a_reason(name: str) -> None:
    engine = find_engine(name)
    params = dict(engine.sample_params[0])
    for bad in (
        {**params, "seats": engine.max_seats + 1},
        {**params, "seats": 0},
        {**params, "no-such-option": 1},
    ):
        with pytest.raises(InvalidParams) as raised:
            engine.initial_state(bad)
        assert str(raised.value)


@pytest.mark.parametrize("name", ENGINES)
@given(
    obj=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.text(max_size=5)
        | st.binary(max_size=5)
        | st.floats(allow_nan=False),
        lambda inner: (
            st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
        max_leaves=12,
    )
)
def test_move_from_wire_only_raises_invalid_move(name: str, obj: object) -> None:
    engine = find_engine(name)
    try:
        move = engine.move_from_wire(obj)
    except InvalidMove:
        return
    assert engine.move_from_wire(engine.move_to_wire(move)) == move


@pytest.mark.parametrize("name", ENGINES)
@given(text=st.text(max_size=24))
def test_parse_move_only_raises_move_errors(name: str, text: str) -> None:
    engine = find_engine(name)
    state = engine.initial_state(engine.sample_params[0])
    try:
        move = engine.parse_move(state, text)
    except (InvalidMove, IllegalMove):
        return
    engine.apply(state, move)


@pytest.mark.parametrize(("name", "index"), CASES)
def test_digests_agree_across_processes(name: str, index: int) -> None:
    engine, params = _setup(name, index)
    here = playthrough_text(engine, params, seed=5)
    code = (
        "import sys\n"
        "from engines import find_engine\n"
        "from engines.playthrough import playthrough_text\n"
        f"e = find_engine({name!r})\n"
        f"sys.stdout.write(playthrough_text(e, e.sample_params[{index}], 5))\n"
    )
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        other = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        assert other == here, f"PYTHONHASHSEED={hash_seed} gave another game"


@pytest.mark.parametrize(("name", "index"), CASES)
@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_golden_playthrough_unchanged(name: str, index: int, seed: int) -> None:
    engine, params = _setup(name, index)
    path = GOLDEN_DIR / golden_name(engine, params, seed)
    assert path.exists(), f"missing {path.name}: run scripts/regen_golden.py {name} and review it"
    golden = path.read_text()
    # Replaying the recorded notation must reach the recorded digests ...
    state = engine.initial_state(params)
    lines = [line for line in golden.splitlines() if not line.startswith("#")]
    assert lines[0] == f"0 - {engine.digest(state).hex()}"
    for line in lines[1:]:
        ply, notation, digest = line.split(" ")
        state = engine.apply(state, engine.parse_move(state, notation))
        assert engine.digest(state).hex() == digest, f"ply {ply} {notation}"
    assert engine.outcome(state) is not None
    # ... and the seeded random game must still choose the same moves.
    assert playthrough_text(engine, params, seed) == golden
