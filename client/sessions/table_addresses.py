"""Where a table's peers listen, as ``host:port`` texts a player can rejoin through.

A peer that crashed comes back by joining any peer still at the table (the table's id comes
with that peer's handshake, and the profile's game file takes the table up again), so the
recent tables keep every address this peer knew: the others' from its mesh book (which the
roster, every link and the peers' ``addresses`` messages fill), and its own listening one
last (its own port goes down with it; it is the first one to try only for another profile).
"""

from __future__ import annotations

from functools import cache

from client.runtime.addresses import lan_addresses
from client.runtime.peer import Peer
from net.invite import Invite

__all__ = ["host_port", "table_addresses"]


def host_port(host: str, port: int) -> str:
    """``host:port``, an IPv6 host in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def table_addresses(peer: Peer, invite: Invite | None) -> tuple[str, ...]:
    """Every address ``peer`` knows its table's peers listen at, the others' first, each
    once; ``invite``: the one it hosts with (None for a joiner)."""
    table = peer.table
    at_table = None if table is None else set(table.start.peer_keys)
    others = [
        host_port(where.host, where.port)
        for key, where in list(peer.mesh.book.items())
        if at_table is None or key in at_table  # what others say of strangers is not kept
    ]
    if invite is not None:
        own = [host_port(host, invite.port) for host in invite.addresses]
    elif peer.port:
        own = [host_port(_this_machine(), peer.port)]
    else:
        own = []
    return tuple(dict.fromkeys([*others, *own]))


@cache
def _this_machine() -> str:
    """This machine's best LAN address, looked up once (it is asked on every table event)."""
    return lan_addresses()[0]
