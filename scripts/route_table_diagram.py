#!/usr/bin/env python3
"""Draw the table's route table (record kind -> the part that takes it) into docs/ARCHITECTURE.md.

Usage: scripts/route_table_diagram.py [--check] [--doc PATH]

The diagram is read from the code, not written by hand: the script builds a real spectator
``client.tabletop.table.Table`` (a START signed in memory by a fresh key, for a registered game) and
reads ``Table.routes``, so a route added, moved or given other signers changes the diagram.
It rewrites the Mermaid block between the two markers of the doc; ``--check`` only compares
and exits 1 when the doc's diagram is stale (tests/scripts/test_route_table_diagram.py runs
it so).  Exit codes: 0 done (or current), 1 stale, 2 the doc lacks the markers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.rules.net_adapter import open_envelope, record_from_net  # noqa: E402
from client.rules.start import PeerSpec, SeatSpec, start_body  # noqa: E402
from client.tabletop.table import ANYONE, PEER, PRESENT, RecordRoute, Table  # noqa: E402
from engines import engine_names, find_engine  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.records import Kind, sign_record  # noqa: E402

DOC = ROOT / "docs" / "ARCHITECTURE.md"
BEGIN = "<!-- route-table: drawn by scripts/route_table_diagram.py; do not edit -->"
END = "<!-- /route-table -->"
SIGNERS = {
    ANYONE: "any key: the part judges",
    PEER: "a peer of START",
    PRESENT: "a peer still at the table",
}


def spectator_table() -> Table:
    """A table as a spectator holds it: START of the first registered game, one peer."""
    engine = find_engine(engine_names()[0])
    params = engine.sample_params[0]
    seats = engine.seat_count(engine.initial_state(params))
    host = Identity.generate()
    key = host.public_key
    body = start_body(
        game=engine.name,
        ruleset=engine.ruleset,
        engine_version=engine.version,
        params=params,
        peers=(PeerSpec(key, "host"),),
        seats=tuple(SeatSpec(seat, key) for seat in range(1, seats + 1)),
    )
    start = record_from_net(sign_record(host, Kind.START, bytes(16), 1, body))
    return Table(start, engine, open_envelope)


def _target(route: RecordRoute) -> tuple[str, str]:
    """The part's method (``TableClaims.on_claim``) and the file it is defined in."""
    function = getattr(route.take, "__func__", route.take)
    path = Path(sys.modules[function.__module__].__file__ or "").resolve()
    return function.__qualname__, str(path.relative_to(ROOT))


def diagram(table: Table) -> str:
    """The Mermaid flowchart of ``table.routes``: kinds grouped by method and signers."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for kind, route in table.routes.items():
        method, path = _target(route)
        groups.setdefault((method, path, route.signers), []).append(kind)
    lines = [
        "```mermaid",
        "flowchart LR",
        '    guards{"Table._dispatch<br/>membership guards<br/>client/tabletop/table.py"}',
    ]
    nodes: dict[tuple[str, str], str] = {}
    for (method, path, signers), kinds in groups.items():
        node = nodes.get((method, path))
        if node is None:  # each part drawn once, where its first route appears
            node = nodes[method, path] = f"part{len(nodes) + 1}"
            lines.append(f'    {node}["{method}<br/>{path}"]')
        label = f"{', '.join(sorted(kinds))}<br/>{SIGNERS[signers]}"  # kinds come from sets
        lines.append(f'    guards -- "{label}" --> {node}')
    lines.append("```")
    return "\n".join(lines) + "\n"


def rewritten(text: str, block: str) -> str | None:
    """``text`` with the block between the markers replaced; None without the markers."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[: start + len(BEGIN)] + "\n" + block + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Draw the table's route table (from Table.routes) into docs/ARCHITECTURE.md."
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if the doc is stale")
    parser.add_argument("--doc", type=Path, default=DOC, help="the doc (default %(default)s)")
    args = parser.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    new = rewritten(text, diagram(spectator_table()))
    if new is None:
        print(f"{args.doc}: no markers {BEGIN!r} ... {END!r}", file=sys.stderr)
        return 2
    if new == text:
        print(f"{args.doc}: the route table diagram is current")
        return 0
    if args.check:
        print(f"{args.doc}: the route table diagram is stale; run {sys.argv[0]}", file=sys.stderr)
        return 1
    args.doc.write_text(new, encoding="utf-8")
    print(f"{args.doc}: route table diagram rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
