"""How a bot answers a draw offer and a takeback request, as a player would.

A draw needs the agreement of every peer at the table (docs/TABLE.md); a peer that runs bots
gives its agreement only when each bot it runs for a seat agrees too (``client.tabletop.seating``),
so a person cannot escape a lost game against its own hosted bots by offering a draw.

The rules, deterministic for a given bot (its seed) and position:

* **draw**: a sensible bot accepts only when its own evaluation of the position, for the seat
  it plays, says it is not winning: Discorder's ``evaluate`` is at most 0, Consensus's score
  is at most 0 (ruling e5 or more material counts as winning), Cognes has no flip that wins
  at once.  The Forbans bot only ranks moves and cannot tell it is not winning: it declines.
  The random ("easy") bot accepts half the time, by a coin drawn from its seed and the
  position's engine digest (so the same offer in the same position gets the same answer);
* **takeback** (of the asker's own last move, the only kind the table allows): a bot
  consents to at most ``MAX_BOT_TAKEBACKS`` takebacks per game (the TAKEBACK plies already
  in the chain count), and only when its evaluation of the position the takeback restores
  does not say it is losing there (Discorder's ``evaluate`` below 0; the other bots have no
  such verdict on a position and consent).  A player lets an opponent undo a slip a
  couple of times a game, but not use takebacks to dig itself out of a lost position.  The
  random ("easy") bot is a forgiving opponent: it consents within the same limit.
"""

from __future__ import annotations

import hashlib

from client.bots import Bot, RandomBot
from engines import AnyEngine

__all__ = ["MAX_BOT_TAKEBACKS", "accepts_draw", "draw_refusal", "takeback_refusal"]

MAX_BOT_TAKEBACKS = 2
"""Takebacks a bot consents to in one game; past that it declines every ask."""


def winning(bot: Bot, engine: AnyEngine, state: object, seat: int) -> bool | None:
    """Whether ``bot``'s own evaluation says ``seat`` is winning; None for a bot without
    one (the random bot)."""
    if isinstance(bot, RandomBot):
        return None
    game = engine.name
    if game == "discorder":
        from client.bots.discorder import evaluate
        from engines.discorder import DiscorderState

        assert isinstance(state, DiscorderState), "the engine's own state"
        return evaluate(state, seat) > 0
    if game == "consensus":
        from client.bots.consensus import score_for
        from engines.consensus import ConsensusState

        assert isinstance(state, ConsensusState), "the engine's own state"
        return score_for(engine, state, engine.controller(state, seat)) > 0
    if game == "cognes":
        from client.bots.cognes import wins_at_once_now
        from engines.cognes import CognesState

        assert isinstance(state, CognesState), "the engine's own state"
        return engine.to_move(state) == seat and wins_at_once_now(engine, state)
    return True  # no evaluation that could say it is not winning: decline


def losing(bot: Bot, engine: AnyEngine, state: object, seat: int) -> bool:
    """Whether ``bot``'s evaluation says ``seat`` is losing.  Only Discorder's ``evaluate``
    (two players, in points) is a verdict on a position; the Consensus score ranks moves
    among four players and is below 0 in many a level position, so it says nothing here."""
    if isinstance(bot, RandomBot) or engine.name != "discorder":
        return False
    from client.bots.discorder import evaluate
    from engines.discorder import DiscorderState

    assert isinstance(state, DiscorderState), "the engine's own state"
    return evaluate(state, seat) < 0


def draw_refusal(bot: Bot, engine: AnyEngine, state: object, seat: int) -> str | None:
    """Why ``bot``, playing ``seat``, declines a draw in ``state`` (words for the player),
    or None when it agrees."""
    judged = winning(bot, engine, state, seat)
    if judged is None:
        return None if _coin(bot, engine, state, seat, b"draw") else "it would rather play on"
    return "it thinks it is winning" if judged else None


def takeback_refusal(
    bot: Bot, engine: AnyEngine, restored: object, seat: int, taken_back: int
) -> str | None:
    """Why ``bot``, playing ``seat``, declines a takeback that restores ``restored``,
    ``taken_back`` takebacks having been made in this game already; None when it agrees."""
    if taken_back >= MAX_BOT_TAKEBACKS:
        return f"it allows {MAX_BOT_TAKEBACKS} takebacks a game, and they are used"
    if losing(bot, engine, restored, seat):
        return "it would be losing after it"
    return None


def accepts_draw(bot: Bot, engine: AnyEngine, state: object, seat: int) -> bool:
    """Whether ``bot``, playing ``seat``, agrees to a draw in ``state``."""
    return draw_refusal(bot, engine, state, seat) is None


def _coin(bot: Bot, engine: AnyEngine, state: object, seat: int, what: bytes) -> bool:
    """A fair coin fixed by the bot's seed, the question, the seat and the position."""
    seed = bot.seed if isinstance(bot, RandomBot) else 0
    digest = hashlib.sha256(b"%s|%d|%d|" % (what, seed, seat) + engine.digest(state)).digest()
    return digest[0] & 1 == 0
