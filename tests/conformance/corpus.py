"""Writes the conformance corpus (conformance/): the real and crafted logs, the manifest of
what a verifier must find in each, and every key that signed them.

Deterministic: the same code writes the same bytes (seeded keys, a seeded virtual network,
Ed25519's deterministic signatures, canonical msgpack).  ``scripts/make-conformance`` runs it.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from tests.conformance.corpus_crafted import crafted_logs
from tests.conformance.corpus_keys import KeyBook
from tests.conformance.corpus_real import real_logs

SUFFIX = ".palabre-log"
GENERATED = ("real", "crafted", "manifest.json", "keys.json")
"""What ``write_corpus`` replaces; the README beside them is written by hand."""


def _first(first: tuple[int | None, str] | None) -> dict[str, Any] | None:
    return None if first is None else {"ply": first[0], "code": first[1]}


def write_logs(out: Path, folder: str, keys: KeyBook) -> list[dict[str, Any]]:
    """Write one folder of the corpus (``real`` or ``crafted``) into ``out``; return its
    manifest entries.  The keys that signed them are added to ``keys``."""
    logs = real_logs(keys) if folder == "real" else crafted_logs(keys)
    entries = []
    (out / folder).mkdir(parents=True)
    for log in logs:
        relative = f"{folder}/{log.name}{SUFFIX}"
        (out / relative).write_bytes(log.data)
        entries.append(
            {
                "file": relative,
                "what": log.what,
                "exit": log.exit,
                "first": _first(log.first),
                "bytes": len(log.data),
                "sha256": hashlib.sha256(log.data).hexdigest(),
            }
        )
    return entries


def write_corpus(out: Path) -> dict[str, Any]:
    """Write the corpus into ``out`` (replacing what it generated before); return the
    manifest."""
    keys = KeyBook()
    for name in GENERATED:
        path = out / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    entries = write_logs(out, "real", keys) + write_logs(out, "crafted", keys)
    manifest = {
        "format": 1,
        "compare": "exit code, then the first problem's ply and code (null: no problem)",
        "logs": entries,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    (out / "keys.json").write_text(json.dumps(keys.to_json(), indent=1) + "\n", encoding="utf-8")
    return manifest
