"""The game file of a game against bots: the same signed log as any table's.

``LocalRecord`` seats a real one-peer ``client.tabletop.table.Table`` — this profile's key at
the player's seat, a fresh key per bot seat, each bot run by this peer — and plays into it
every ply the local game plays, so the table signs the plies, its ACKs and its END exactly
as a hosted table with bots would, and ``net``'s signers write them ahead to the game file.
``palabre verify`` reads the file like any other; the replay opens it.

Invariants: the local game stays the authority on what is played (``LocalGame`` applies a
ply, then records it); after each ply the table's engine digest is the game's, else the
record stops (``RecordLost``) rather than write a log that says something else.  The first
failure (a full disk, a refusal) stops the record for good and says why once; the game goes
on.  Bot keys live only in memory: nobody needs to sign for them after the game.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from client.profile.game_file import GameFile
from client.rules.errors import IntentRefused
from client.rules.net_adapter import NetSigner, open_envelope
from client.rules.records import START
from client.rules.start import PeerSpec, SeatSpec, start_body
from client.tabletop.table import Table
from engines import AnyEngine
from net.errors import LogFileError
from net.identity import Identity
from net.signer import RecordSigner

__all__ = ["LocalRecord", "RecordLost"]


class RecordLost(Exception):
    """The game file can no longer follow the game (the reason is for the player)."""


class LocalRecord:
    """A one-peer table with its bots, writing ``path``.  See the module docstring."""

    def __init__(
        self,
        engine: AnyEngine,
        params: Mapping[str, int | str],
        identity: Identity,
        my_seat: int,
        names: Mapping[int, str],
        file: GameFile,
        bot_level: str | None = None,
    ) -> None:
        """Sign START into ``file`` (a new game file, ``client.profile.game_file``)."""
        self.path = file.path
        self._engine = engine
        table_id = os.urandom(16)
        self._file = file
        me = identity.public_key
        bots = {seat: Identity.generate() for seat in names if seat != my_seat}
        signers = {me: NetSigner(RecordSigner(identity, table_id, self._file))}
        seats = []
        for seat in sorted(names):
            if seat == my_seat:
                seats.append(SeatSpec(seat, me))
                continue
            bot = bots[seat]
            signers[bot.public_key] = NetSigner(RecordSigner(bot, table_id, self._file))
            seats.append(SeatSpec(seat, bot.public_key, me, bot_level))
        body = start_body(
            game=engine.name,
            ruleset=engine.ruleset,
            engine_version=engine.version,
            params=dict(params),
            peers=(PeerSpec(me, names[my_seat]),),
            seats=tuple(seats),
        )
        start = signers[me].sign(START, body)
        self._table = Table(
            start,
            engine,
            open_envelope,
            me=me,
            signers=signers,
            journal=lambda record: self._file.append(record.envelope),
        )
        self._table.begin(time.monotonic())
        self._file.sync()

    def move(self, move: object, state: object) -> None:
        """Record ``move`` (whoever's seat it is), which took the game to ``state``."""
        self._act(lambda now: self._table.move(move, now), state)

    def resign(self, state: object) -> None:
        """Record the player's resignation (at the player's own turn, as the game plays it)."""
        self._act(lambda now: self._table.resign(now), state)

    def draw(self, state: object) -> None:
        """Record the draw the bots agreed to: the player's offer; the table appends DRAW."""
        self._act(lambda now: self._table.offer_draw(now), state)

    def take_back(self, state: object) -> None:
        """Record the player's takeback: the ask (with consent); the table appends TAKEBACK."""
        self._act(lambda now: self._table.ask_takeback(now), state)

    def close(self) -> None:
        self._file.close()

    def _act(self, act: object, state: object) -> None:
        assert callable(act)
        try:
            act(time.monotonic())
            self._file.sync()
        except (IntentRefused, LogFileError, OSError) as error:
            raise RecordLost(str(error)) from error
        head = self._table.head.engine_state
        if self._engine.digest(head) != self._engine.digest(state):
            raise RecordLost(f"the file's ply {self._table.head.ply} differs from the game")
