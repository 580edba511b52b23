"""A strong Consensus bot: the sensible bot's best moves, each followed round the table
(``client.bots.reply_search`` says how).

Measured on seeded matches against three sensible bots (scripts/bench_bots.py,
docs/BENCHMARKS.md): a wider first step (12) won no more games than 8 for half again the
time, a narrower one (4, 6) won fewer; stopping before step 3 (scoring the position where
this bot must move) won fewer; two rounds (at width 5) took twice the time and won no more
in the games played.

Every rule is the engine's: moves come from the sensible bot's candidates (every origin and
target the engine offers, with representative placements and exits), states from
``engine.apply``, so extra moves, control passing to a killer (the replies are then played
by whoever controls each seat) and the centre actions are moves like any other.  The bot
never changes a state, and its only randomness is its ``random.Random(seed)``: given a seed
and the same positions it plays the same moves.
"""

from __future__ import annotations

from client.bots import reply_search
from client.bots.consensus import score_for, scored_moves

__all__ = ["SEARCH"]

SEARCH = reply_search.SearchGame(
    scored_moves=scored_moves,
    score_for=score_for,
    width=8,  # the 8 best first moves
    jitter=300,  # in the sensible score's units, as the sensible bot's own
    round_plies=8,  # three other slots and as many extra moves
)
