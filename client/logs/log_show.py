"""``palabre log show``: a game log as people read it.

The log is replayed by the verifier (``client.logs.verifier``), so what is shown is what the
chain says: each ply in the game's notation with its seat, its author and whether it is
final, chat and the other records outside the chain (draw offers, takeback asks and
consents) in the place they hold in the file, the result, and a last line saying whether
the log verifies.  ``--ply N`` shows the board
after ply N instead (``client.logs.board_text``).

Invariants: nothing is shown that the replay did not accept, except records marked as
problems (named, not shown as plies); text from players (names, chat) has control
characters replaced so it cannot move the terminal's cursor.
"""

from __future__ import annotations

import unicodedata

from client.logs.board_text import board_lines
from client.logs.verifier import Entry, Verification
from client.rules.chain import TableState, describe_key
from client.rules.clock import clock_face
from client.rules.clock_history import ClockedPly
from client.rules.halting import halt_claim
from client.rules.records import (
    CHAT,
    DRAW_ACCEPT,
    DRAW_OFFER,
    HALT,
    POINT,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
    SignedRecord,
)

__all__ = ["board_at", "game_lines", "position_lines"]


def game_lines(verification: Verification) -> list[str]:
    """Header, players, plies with chat in place, result, and the verdict."""
    report, start, chain = verification.report, verification.start, verification.chain
    assert start is not None and chain is not None
    lines = [
        f"game:     {start.game} (ruleset {start.ruleset}, engine {start.engine_version}), "
        f"table {start.table_id.hex()}",
    ]
    if start.params:
        lines.append(
            "options:  "
            + ", ".join(f"{k}={_clean(str(v))}" for k, v in sorted(start.params.items()))
        )
    lines.append(f"host:     {_clean(start.name_of(start.host))}")
    lines.append("players:")
    lines.extend(f"  {_clean(player.line())}" for player in report.players)
    if start.clock is not None:
        lines.append(
            f"clock:    {start.clock.describe()} (lag credit {start.clock.lag_ms} ms); under "
            "each ply: what its seat was charged and every seat's time left"
        )
    final = "none" if report.final < 0 else f"up to ply {report.final}"
    lines.append(f"plies:    {report.plies} (final {final})")
    clocked = {ply.ply: ply for ply in report.clocked}
    for entry in verification.entries[1:]:
        line = _entry_line(verification, entry)
        if line:
            lines.append(line)
        if entry.status == "applied" and entry.ply in clocked:
            lines.append(_clock_line(clocked[entry.ply]))
    if report.result is not None:
        ended = "ENDs from every peer" if report.ended else "not every peer signed END"
        lines.append(f"result:   {_clean(report.result.summary)} ({ended})")
    else:
        lines.append("result:   none yet: the game is not over in this log")
    if report.cut is not None:
        lines.append(f"cut:      {report.cut}")
    lines.extend(f"damaged:  {damage}" for damage in report.damaged)
    verdict = report.status
    if report.problems:
        verdict += f", {len(report.problems)} problem(s): `palabre verify` lists them"
    lines.append(f"log:      {verdict}")
    return lines


def _entry_line(verification: Verification, entry: Entry) -> str:
    record, chain, start = entry.record, verification.chain, verification.start
    assert chain is not None and start is not None
    if entry.status == "problem":
        what = record.kind if record is not None else "record"
        return f"      !   record {entry.number}: a {what} with a problem (not applied)"
    if record is None:
        return ""
    if entry.status in ("applied", "dropped") and entry.ply is not None:
        if entry.status == "dropped":
            who = _who(verification, record)
            return f"      -   {record.kind} of ply {entry.ply} by {who}, dropped by a REMOVE"
        state = chain.at(entry.ply)
        before = chain.at(entry.ply - 1)
        who = _clean(describe_key(start, before.seats, record.author))
        seat = f"seat {state.seat}" if state.seat is not None else "table"
        final = "final" if entry.ply <= verification.report.final else "not final"
        return f"{entry.ply:6d}.  {seat:<8} {_clean(state.label):<24} {final:<9}  by {who}"
    who = _who(verification, record)
    body = record.body
    if record.kind == CHAT:
        return f"        chat  {who}: {_clean(str(body['text']))}"
    if record.kind == DRAW_OFFER:
        return f"        {who} offers a draw"
    if record.kind == DRAW_ACCEPT:
        return f"        {who} accepts a draw"
    if record.kind == TAKEBACK_ASK:
        return f"        {who} asks to take back ply {int(body['ply']) - 1}"
    if record.kind == TAKEBACK_CONSENT:
        return f"        {who} consents to take back ply {int(body['ply']) - 1}"
    if record.kind == POINT:
        marks = len(body["arrows"]) + len(body["squares"])
        return f"        {who} points at the board ({marks} mark(s))" if marks else ""
    if record.kind == HALT:
        return f"        {halt_claim(who, _clean(str(body['reason'])), int(body['ply']))}"
    return ""


def _clock_line(ply: ClockedPly) -> str:
    """``clock  seat 2 charged 3.4 s · 4:56 / 5:00 / 5:00 / 5:00`` (late, disputed said)."""
    verdict = ply.verdict
    if verdict.late:
        what = f"seat {ply.seat} ran out of time: measured {verdict.figure / 1000:.1f} s"
    else:
        what = f"seat {ply.seat} charged {verdict.charge / 1000:.1f} s"
    if verdict.disputed:
        what += " (disputed: the two figures lie on both sides of the limit)"
    left = " / ".join(clock_face(ms, 10_000) for ms in ply.remaining)
    return f"        clock  {what} · {left}"


def _who(verification: Verification, record: SignedRecord) -> str:
    start, chain = verification.start, verification.chain
    assert start is not None and chain is not None
    return _clean(describe_key(start, chain.head.seats, record.author))


def board_at(verification: Verification, ply: int) -> TableState:
    """The replayed state after ``ply``; ``IndexError`` with a sentence if there is none."""
    chain = verification.chain
    assert chain is not None
    if not 0 <= ply <= chain.head.ply:
        raise IndexError(f"this log holds plies 0 to {chain.head.ply}, not {ply}")
    return chain.at(ply)


def position_lines(verification: Verification, ply: int) -> list[str]:
    """The board after ``ply`` as text, under a line saying which ply it follows."""
    state = board_at(verification, ply)
    engine = verification.engine
    assert engine is not None
    if ply == 0:
        head = "position at ply 0: the start"
    else:
        who = _who(verification, state.record)
        head = f"position after ply {ply}: {_clean(state.label)} by {who}"
    return [head, *board_lines(engine, state.engine_state)]


def _clean(text: str) -> str:
    """Text from a player with control and format characters made harmless."""
    return "".join("?" if unicodedata.category(char) in ("Cc", "Cf") else char for char in text)
