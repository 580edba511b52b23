"""The players of a table in seat order, as START names them: a person by the name they gave,
a bot by its bot name (``client.rules.bot_names``).  A networked table's game file is named
with them (``client.profile.table_files``), before START is signed (the host) or from it."""

from __future__ import annotations

from collections.abc import Sequence

from client.rules.bot_names import bot_name
from client.rules.start import PeerSpec, SeatSpec

__all__ = ["seated_names"]


def seated_names(peers: Sequence[PeerSpec], seats: Sequence[SeatSpec]) -> list[str]:
    """``["Ann", "Bot 2 of Ann (strong)", "Bea"]``: one name per seat, seat 1 first."""
    names = {peer.key: peer.name for peer in peers}
    return [
        names.get(seat.key, "?")
        if seat.runner is None or seat.runner == seat.key
        else bot_name(seat.seat, names.get(seat.runner, "?"), seat.level)
        for seat in sorted(seats, key=lambda seat: seat.seat)
    ]
