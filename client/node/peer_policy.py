"""The record policy every link of a table shares (``net.linkspec.RecordPolicy``).

``TablePolicy`` takes any author before START (``keys`` None) and only START's keys and the
new bot keys of votes and REMOVEs after it; ``seen`` holds every record hash the peer
holds, so a duplicate is dropped before its signature is checked.
"""

from __future__ import annotations

__all__ = ["TablePolicy"]


class TablePolicy:
    """The table's ``net.linkspec.RecordPolicy``: the keys it takes, the records it holds.

    ``keys`` None (before START): any author, since START may come through any peer; the
    peer takes nothing but START then."""

    def __init__(self) -> None:
        self.keys: set[bytes] | None = set()
        self.seen: set[bytes] = set()

    def allows(self, author: bytes) -> bool:
        return self.keys is None or author in self.keys

    def knows(self, record_hash: bytes) -> bool:
        return record_hash in self.seen
