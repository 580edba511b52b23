"""The players of a table in seat order, as START names them: a person by the name they gave,
a bot by its bot name (``client.rules.bot_names``).  A networked table's game file is named
with them (``client.profile.table_files``), before START is signed (the host) or from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from client.rules.bot_names import BotNamer, bot_name
from client.rules.start import PeerSpec, SeatSpec

__all__ = ["seat_name", "seated_names"]


def seated_names(peers: Sequence[PeerSpec], seats: Sequence[SeatSpec]) -> list[str]:
    """``["Ann", "Bot 2 of Ann (strong)", "Bea"]``: one name per seat, seat 1 first."""
    names = {peer.key: peer.name for peer in peers}
    return [seat_name(seat, names) for seat in sorted(seats, key=lambda seat: seat.seat)]


def seat_name(seat: SeatSpec, names: Mapping[bytes, str], namer: BotNamer = bot_name) -> str:
    """Who plays ``seat``: the person's name, or the bot's (``namer``) for a bot seat and for
    a player's own seat its palabre's bot plays (``--bot``); ``names``: each peer's name."""
    runner = seat.bot_runner
    if runner is None:
        return names.get(seat.key, "?")
    return namer(seat.seat, names.get(runner, "?"), seat.bot_level)
