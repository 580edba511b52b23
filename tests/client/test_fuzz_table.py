"""Fuzzing the table core (issue 13): well-signed but arbitrary records from a seated liar
never break an honest peer (tests/client/fuzzing.py says what must hold); scripts/fuzz.py
runs the same for as long as asked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.client.fuzzing import check_honest, hostile_run


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), lies=st.integers(1, 60))
def test_well_signed_arbitrary_records_never_break_an_honest_table(seed: int, lies: int) -> None:
    setup, router = hostile_run(seed, lies)
    check_honest(setup, router)
