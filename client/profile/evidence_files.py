"""Evidence files next to the game file: ``games/<table>.<name>.json`` in the profile.

The node's ``client.node.node_io.EvidenceStore`` port, synchronous like the game file: the
event telling of an evidence file comes only once it is written.  A system that refuses
the file (no file descriptor left, the disk full) is logged and the game goes on without
it (issue 19): ``write`` returns None.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from net.fsutil import os_reason
from net.invite import format_table_id

__all__ = ["EvidenceFiles"]

log = logging.getLogger("palabre.peer")


class EvidenceFiles:
    """Writes evidence files into ``games`` (the profile's game folder)."""

    def __init__(self, games: Path) -> None:
        self.games = games

    def path(self, table_id: bytes, name: str) -> Path:
        return self.games / f"{format_table_id(table_id)}.{name}.json"

    def write(self, table_id: bytes, name: str, content: dict[str, object]) -> Path | None:
        """Write one evidence file (atomically: aside, then renamed); its path, or None."""
        path = self.path(table_id, name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            aside = path.with_suffix(".tmp")
            aside.write_text(json.dumps(content, indent=1, ensure_ascii=False), encoding="utf-8")
            aside.replace(path)
        except OSError as error:
            log.warning("cannot write %s (%s); the game goes on", path, os_reason(error).lower())
            return None
        return path
