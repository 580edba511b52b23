"""What a ``RecordIgnored`` means, in words a player reads (the headless printer's line).

The table's own reason (``RecordIgnored.reason``) names keys and record kinds ("peer
K3QF-7XZA… (Ann) was removed at ply 12; its MOVE was ignored"), which is right for the logs
and wrong for a player.  This says the same from the table's state: who (the player's
name; for a bot key, the player who ran it), what (a move, a chat message...), and why (the
ply that removed them, or the ply the table was abandoned at).
"""

from __future__ import annotations

from client.rules.records import (
    ACK,
    CHAT,
    DRAW,
    DRAW_ACCEPT,
    DRAW_OFFER,
    END,
    HALT,
    MOVE,
    POINT,
    REMOVE,
    RESIGN,
    TAKEBACK,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
    VOTE,
    SignedRecord,
    key_label,
)
from client.tabletop.table import Table

__all__ = ["ignored_sentence"]

THINGS = {
    MOVE: "move",
    RESIGN: "resignation",
    DRAW: "agreed draw",
    REMOVE: "vote-off",
    TAKEBACK: "takeback",
    ACK: "confirmation",
    END: "signature of the result",
    HALT: "halt",
    CHAT: "chat message",
    POINT: "pointing",
    DRAW_OFFER: "draw offer",
    DRAW_ACCEPT: "draw acceptance",
    VOTE: "vote",
    TAKEBACK_ASK: "takeback request",
    TAKEBACK_CONSENT: "takeback consent",
}
"""Each record kind as a player would name it; a kind not here reads "message"."""

CONFIRMS = (ACK, END)
"""Kinds that are about one ply (``body["ply"]``), which the sentence then names."""


def ignored_sentence(table: Table, record: SignedRecord) -> str:
    """``Bruno was removed at ply 12; their move was ignored``, and the like."""
    runner = table.runner_of(record.author) or record.author
    who = _name(table, runner)
    thing = THINGS.get(record.kind, "message")
    ply = record.body.get("ply") if record.kind in CONFIRMS else None
    if isinstance(ply, int) and not isinstance(ply, bool):
        thing += f" of ply {ply}"
    removed = _removed_at(table, runner)
    if removed is not None:
        return f"{who} was removed at ply {removed}; their {thing} was ignored"
    if table.abandoned is not None:
        return f"the table was abandoned at ply {table.abandoned[0]}; {who}'s {thing} was ignored"
    return f"{who}'s {thing} came too late to count and was ignored"


def _name(table: Table, key: bytes) -> str:
    for peer in table.start.peers:
        if peer.key == key and peer.name:
            return peer.name
    return key_label(key)


def _removed_at(table: Table, key: bytes) -> int | None:
    """The ply of the REMOVE that took ``key`` off the table, if one did."""
    chain = table.chain
    for ply in range(chain.head.ply, 0, -1):
        if key not in chain.at(ply).peers:
            if key in chain.at(ply - 1).peers:
                return ply
        else:
            return None
    return None
