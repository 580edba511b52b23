"""Groups and liberties on the Les Forbans graph, computed with integer bit masks.

A board is a tuple with one signed count per port: ``+n`` for ``n`` Bleu pieces, ``-n`` for
``n`` Vert pieces, ``0`` for an empty port (both sides never share a port).  A set of ports is
an int whose bit ``p`` stands for port ``p``; ``neighbour_masks[p]`` is the set of ports one
route away from ``p`` (see ``engines.forbans_map``).

* A group is a maximal set of ports holding one side's pieces, connected by routes.
* A liberty of a group is an empty port next to one of its ports.
* A group with no liberty is encircled.

Everything here is a pure function of its arguments; nothing is cached between calls.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = [
    "bits",
    "encircled_group",
    "groups",
    "liberty_count",
    "position_key",
    "side_masks",
]


def bits(mask: int) -> Iterator[int]:
    """The ports in ``mask``, in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def side_masks(board: Sequence[int]) -> tuple[int, int]:
    """(ports holding Bleu pieces, ports holding Vert pieces)."""
    bleu = vert = 0
    for port, count in enumerate(board):
        if count > 0:
            bleu |= 1 << port
        elif count < 0:
            vert |= 1 << port
    return bleu, vert


def _spread(mask: int, neighbour_masks: Sequence[int]) -> int:
    """The ports next to some port of ``mask``."""
    around = 0
    for port in bits(mask):
        around |= neighbour_masks[port]
    return around


def _flood(seed: int, within: int, neighbour_masks: Sequence[int]) -> int:
    """Every port of ``within`` connected to ``seed`` through ports of ``within``."""
    reached = seed & within
    frontier = reached
    while frontier:
        frontier = _spread(frontier, neighbour_masks) & within & ~reached
        reached |= frontier
    return reached


def groups(side: int, neighbour_masks: Sequence[int]) -> list[int]:
    """The groups of the ports in ``side``, each a mask, ordered by their lowest port."""
    found = []
    rest = side
    while rest:
        group = _flood(rest & -rest, side, neighbour_masks)
        found.append(group)
        rest &= ~group
    return found


def liberty_count(group: int, empty: int, neighbour_masks: Sequence[int]) -> int:
    """How many empty ports lie next to ``group``."""
    return (_spread(group, neighbour_masks) & empty).bit_count()


def encircled_group(side: int, empty: int, neighbour_masks: Sequence[int]) -> int:
    """A group of ``side`` with no liberty (the one with the lowest port), or 0 if none.

    Fast path first: the ports of ``side`` that touch an empty port, and everything connected
    to them, have a liberty; usually that is the whole side.
    """
    touching = 0
    for port in bits(side):
        if neighbour_masks[port] & empty:
            touching |= 1 << port
    free = _flood(touching, side, neighbour_masks)
    trapped = side & ~free
    if not trapped:
        return 0
    return _flood(trapped & -trapped, side, neighbour_masks)


def position_key(board: Sequence[int], seat: int, port_bits: int) -> int:
    """An exact integer naming (pieces on ports, seat to move), for repetition counting.

    The seat (at least 1) leads, then one ``port_bits + 4``-bit field per occupied port
    (port number, count + 8); the seat's bits make the field count readable from the length,
    so two different positions never get the same key.
    """
    key = seat
    for port, count in enumerate(board):
        if count:
            key = (key << (port_bits + 4)) | (port << 4) | (count + 8)
    return key
