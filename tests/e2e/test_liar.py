"""The lying peer (issue 13) against real running tables over TCP.

The liar (``tests.e2e.liar``) is palabre's own peer holding a seat's valid key, with lies
told at ply numbers, never after a sleep.  For each lie every honest peer must: reject it
with the right reason, naming the liar; apply nothing illegal; keep the evidence; and end
with the same chain as the others, the game going on where it can.

The tables (docs/SECURITY.md says why each attacker sits where it does):

* a joining liar at a Forbans table of five seats (it plays seat 3 and runs the bot of seat
  5) tells every lie that a game survives, then plays on: the game must be exactly the one
  honest bots play;
* a hosting liar at a Consensus table appends REMOVEs it has no votes for (only the peer
  with the lowest seat may append one), then equivocates, showing P3 another version of
  its move than the others;
* joining liars at Consensus tables: one acks a false chain digest; one signs a move with
  the ``seq`` of its last ACK; one stays connected but never moves nor acks again.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from client.bots import make_bot
from client.bots.match import play_match
from client.commands.net_demo import check_chains
from client.node.evidence_budget import MAX_EVIDENCE_BYTES_PER_AUTHOR, MAX_EVIDENCE_FILES_PER_AUTHOR
from client.profile.table_files import INDEX_NAME
from client.rules.records import CHAT, POINT
from client.tabletop.flood_guard import FLOOD_QUIET, MAX_HELD_OUTSIDE_BYTES, RATES
from engines import find_engine
from net.identity import load_profile_identity
from net.logfile import LogWriter
from net.records import Kind, sign_record
from tests.e2e.tables import ROOT, Proc, Table, chain_line, ply_lines
from tests.e2e.test_table import FAST, results

pytestmark = pytest.mark.e2e


def told(liar: Proc, lie: str) -> int:
    """The ply at which the liar told ``lie``."""
    found = re.search(rf"^liar: {lie} at ply (\d+): ", liar.output, re.M)
    assert found, f"the liar never told {lie}:\n{liar.output}"
    return int(found.group(1))


def rejected(proc: Proc, pattern: str) -> str:
    found = re.search(rf"^REJECTED: {pattern}$", proc.output, re.M)
    assert found, f"{proc.name} did not reject {pattern!r}:\n{proc.output}"
    return found.group(0)


def evidence_files(table: Table, proc: Proc) -> list[dict[str, object]]:
    games = table.home / "profiles" / proc.name / "games"
    return [json.loads(p.read_text()) for p in sorted(games.glob("*.rejected-*.json"))]


def same_chains(table: Table) -> None:
    report = io.StringIO()
    assert check_chains(results(table), report) == 0, report.getvalue() + table.outputs()
    assert len({tuple(ply_lines(proc.output)) for proc in table.procs}) == 1, table.outputs()


def another_tables_log(table: Table) -> Path:
    """Records the host signed at another table, as a liar who sat there kept them."""
    host = load_profile_identity("host", table.home)
    path = table.home / "elsewhere.palabre-log"
    writer = LogWriter.create(path)
    other = bytes(range(16))
    writer.append(sign_record(host, Kind.CHAT, other, 1, {"text": "good game"}).data)
    move = {"ply": 1, "prev": bytes(32), "seat": 1, "move": [0]}
    writer.append(sign_record(host, Kind.MOVE, other, 2, move).data)
    writer.close()
    return path


def four_with_a_liar(table: Table, lies: str, *host_options: str) -> Proc:
    """A Consensus table of four bot peers; the one at seat 3 is the liar."""
    table.host("consensus", *FAST, *host_options)
    table.join("P2", "--seat", "2", *FAST)
    liar = table.join("Liar", "--seat", "3", *FAST, lies=lies)
    table.join("P4", "--seat", "4", *FAST)
    return liar


def halt_evidence(proc: Proc) -> dict[str, Any]:
    """The last halt evidence file ``proc`` named."""
    path = re.findall(r"^evidence: (\S+halt\.json)$", proc.output, re.M)[-1]
    found: dict[str, Any] = json.loads(Path(path).read_text())
    return found


def test_a_joining_liar_is_caught_at_every_lie_and_the_game_goes_on(table: Table) -> None:
    table.host("forbans", "--seats", "5", *FAST)
    replay = another_tables_log(table)
    lies = ";".join(
        [
            "bot_seat@0:5",
            "other_seat@2",
            "out_of_turn@4",
            "resign_other@5",
            "draw_other@6",
            "illegal@8",
            "bot_chat@9",
            f"replay@10:{replay}",
            "forged_chat@11:P2",
            "hello_sig@12",
            "bad_prev@13",
            "garbage@14",
            "reuse_seq_chat@15",
            "record_sig_hello@16",
        ]
    )
    table.join("P2", "--seat", "2", *FAST)
    liar = table.join("Liar", "--seat", "3", *FAST, lies=lies)
    table.join("P4", "--seat", "4", *FAST)
    codes = table.finish()
    assert codes == [0, 0, 0, 0], table.outputs()
    same_chains(table)
    host, p2, _, p4 = table.procs
    honest = (host, p2, p4)

    # nothing illegal entered the game: it is the game honest bots play
    engine = find_engine("forbans")
    bots = {seat: make_bot("forbans", "sensible", seat) for seat in range(1, 6)}
    match = play_match(engine, {**engine.sample_params[0], "seats": 5}, bots)
    assert [line.split()[-2] for line in ply_lines(host.output)] == [
        ply.notation for ply in match.plies
    ]
    assert chain_line(host.output)[0] == len(match.plies)

    liar_key = load_profile_identity("liar", table.home).public_key
    named = r"peer \S+ \(Liar\)"
    for proc in honest:
        other = told(liar, "other_seat")
        # the seat to move when the lie was told (seat 2 at ply 2, later if bots were quick)
        seat = re.search(r"^liar: other_seat at ply \d+: a move for seat (\d)$", liar.output, re.M)
        assert seat is not None and seat[1] != "3", liar.output
        rejected(
            proc, rf"{named} sent a move for seat {seat[1]} but holds seat 3; the move was ignored"
        )
        rejected(proc, rf"{named} sent a move for seat 3, but it is seat \d's turn; .*ignored")
        rejected(proc, rf"{named} sent an illegal move for seat 3: .*; the move was ignored")
        rejected(
            proc,
            rf"{named} sent a MOVE for ply {told(liar, 'bad_prev')} built on another position "
            rf"\(its prev is not the chain digest after ply {told(liar, 'bad_prev') - 1}\); "
            "it was ignored",
        )
        rejected(proc, rf"{named} sent a resignation for seat \d but holds seat 3; .*ignored")
        rejected(proc, rf"{named} sent a draw for seat \d but holds seat 3; the draw was ignored")
        rejected(  # the liar's palabre adds its bot at its own level (normal, the default)
            proc,
            rf"the normal bot of seat 5 run by {named} is no peer at this table and may not sign "
            "a CHAT",
        )
        assert "this is the host speaking" not in proc.output  # no chat line was shown
        reused = rejected(
            proc,
            rf"{named} signed two different records with seq (\d+) \(a CHAT, then a CHAT\); "
            "the second was ignored",
        )
        # whichever of the two came first here is shown, the other never: the links (and
        # the peers passing the records on) decide the order, not the liar's intent
        shown = [
            text
            for text in ("good luck, everyone", "I take that back")
            # a chat is signed by the Liar's key, whose seat its palabre's bot plays
            if re.search(rf"^chat: Bot 3 of Liar \(normal\): {text}$", proc.output, re.M)
        ]
        assert len(shown) == 1, proc.output
        files = evidence_files(table, proc)
        kept = [f for f in files if f["kind"] == "rejected"]
        assert len(kept) == 8, files
        [pair] = [f["records"] for f in kept if f["reason"] == reused.removeprefix("REJECTED: ")]
        assert isinstance(pair, list) and [r["kind"] for r in pair] == ["CHAT", "CHAT"]
        assert len({r["seq"] for r in pair}) == 1 and len({r["hash"] for r in pair}) == 2
        assert all(f["culprits"] == [liar_key.hex()] for f in kept)
        assert any(f["ply"] == other for f in kept)
        assert "Traceback" not in proc.output
    # records of another table stop at the links they came on (the liar's): never passed on
    rejected(host, rf"from {named} at \S+: CHAT #1 by \S+ is for table \S+, not this one")
    rejected(host, rf"from {named} at \S+: MOVE #2 by \S+ is for table \S+, not this one")
    for proc in honest:
        for line in re.findall(r"^.*is for table.*$", proc.output, re.M):
            assert re.search(rf"REJECTED: from {named} at ", line), line
    # a second link with the liar's key: each lie there closes that link, not the game
    for reason in (
        r"bad signature on a record said to be by \S+",  # a chat forged as P2's
        r"bad signature on a record said to be by \S+",  # a handshake-purpose signature
        r"a frame failed the link's integrity check .*",  # noise after the handshake
    ):
        pattern = rf"^link: {named} at \S+: closed on a fault: {reason}$"
        assert re.search(pattern, host.output, re.M), host.output
    assert len(re.findall(r"^link: .*closed on a fault", host.output, re.M)) == 3
    # a bad signature or noise proves nothing about a key (anyone can send them): no file
    assert not [f for f in evidence_files(table, host) if f["kind"] in ("link", "refused")]
    assert "I resign, sorry" not in host.output + p2.output + p4.output
    for lie in ("forged_chat", "hello_sig", "garbage"):
        assert re.search(rf"^liar: {lie}: the host closed the second link: ", liar.output, re.M)
    # a handshake signed for the record purpose: refused before the link opens, and said
    liar_fp = load_profile_identity("liar", table.home).fingerprint[:9]
    assert re.search(
        rf"^link: \S+: no link: the joiner {liar_fp}… did not prove it holds its key "
        r"\(bad handshake signature\)$",
        host.output,
        re.M,
    ), host.output
    assert re.search(
        r"^liar: (record_sig_hello: the host closed the second link|the second link closed "
        r"early): .*bad handshake signature",
        liar.output,
        re.M,
    ), liar.output
    # the game files: each honest one is valid (missing only the liar's refused records,
    # which the evidence files hold); the liar's own, written ahead, convicts it of each lie
    for proc in honest:
        done = verify(table, proc)
        assert done.returncode == 3, done.stdout
        assert "signed by peer" in done.stdout and "(Liar) are not in this log" in done.stdout
        assert "invalid:" not in done.stdout
    done = verify(table, liar)
    assert done.returncode == 1, done.stdout
    assert len(re.findall(r"^invalid: .*\(Liar\)", done.stdout, re.M)) == 8, done.stdout


def test_a_hosting_liar_cannot_remove_without_votes_and_its_equivocation_halts_everyone(
    table: Table,
) -> None:
    lies = "remove_unvoted@2;remove_misvoted@3;equivocate@5:P3"
    table.host("consensus", "--name", "Liar", *FAST, lies=lies)
    for seat in (2, 3, 4):
        table.join(f"P{seat}", "--seat", str(seat), *FAST)
    codes = table.finish()
    assert codes == [3, 3, 3, 3], table.outputs()
    liar, *honest = table.procs
    liar_key = load_profile_identity("host", table.home).public_key
    named = r"peer \S+ \(Liar\)"
    ply = told(liar, "equivocate")
    for proc in honest:
        rejected(
            proc,
            rf"{named}'s REMOVE lacks the consent of peer \S+ \(P[23]\), "
            rf"peer \S+ \(P[23]\); it was ignored",
        )
        rejected(proc, rf"{named}'s REMOVE carries a consent by {named} given for another .*")
        removes = [
            f
            for f in evidence_files(table, proc)
            if f["kind"] == "rejected" and "REMOVE" in str(f["reason"])
        ]
        assert len(removes) == 2 and all(f["culprits"] == [liar_key.hex()] for f in removes)
        assert "removed" not in "\n".join(ply_lines(proc.output))  # nobody was removed
        assert not re.search(r"^vote: ", proc.output, re.M)  # nor was anyone voted off
        assert re.search(rf"^HALTED at ply {ply}: ", proc.output, re.M), proc.output
        verdict = re.findall(r"^verdict: (.*)$", proc.output, re.M)[-1]
        assert re.fullmatch(rf"{named} signed two different records for ply {ply}", verdict), (
            proc.output
        )
        halt = halt_evidence(proc)
        assert halt["kind"] == "equivocation" and halt["culprits"] == [liar_key.hex()]
        moves = [
            r for r in halt["records"] if r["kind"] == "MOVE" and r["author"] == liar_key.hex()
        ]
        assert len({r["hash"] for r in moves}) == 2  # both versions, signed by the liar
        assert len(halt["states"]) >= 2
        assert chain_line(proc.output)[1] < ply  # the equivocated ply never became final
    # the honest peers agree on everything before the equivocated ply
    for proc in honest:
        lines = ply_lines(proc.output)
        assert [line.split()[-2] for line in lines[: ply - 1]] == [
            line.split()[-2] for line in ply_lines(honest[0].output)[: ply - 1]
        ]


def test_a_false_ack_halts_the_table_and_names_the_liar(table: Table) -> None:
    liar = four_with_a_liar(table, "false_ack@6")
    codes = table.finish()
    assert codes == [3, 3, 3, 3], table.outputs()
    assert re.search(r"^liar: false_ack at ply 6: ", liar.output, re.M)
    liar_key = load_profile_identity("liar", table.home).public_key
    for proc in (table.procs[0], table.procs[1], table.procs[3]):
        assert re.search(
            r"^HALTED at ply 6: peer \S+ \(Liar\) signed another chain digest", proc.output, re.M
        ), proc.output
        verdict = re.findall(r"^verdict: (.*)$", proc.output, re.M)[-1]
        assert re.fullmatch(
            r"peer \S+ \(Liar\) disagrees with the majority \(3 of 4 peers\) on ply 6", verdict
        ), proc.output
        halt = halt_evidence(proc)
        assert halt["culprits"] == [liar_key.hex()]
        acks = [r for r in halt["records"] if r["kind"] == "ACK" and r["author"] == liar_key.hex()]
        assert acks, halt
        assert chain_line(proc.output)[1] == 5  # ply 6 was never final
    assert len({chain_line(p.output)[2] for p in table.procs}) == 1  # one chain, the liar's too


def test_a_move_reusing_the_seq_of_an_ack_halts_the_table_and_names_the_liar(
    table: Table,
) -> None:
    """A record of the chain in a pair with one ``seq``: refusing the later one would split
    the honest peers by arrival order, so the table halts (client/rules/seq_book.py)."""
    liar = four_with_a_liar(table, "reuse_seq_move@6")
    codes = table.finish()
    assert codes == [3, 3, 3, 3], table.outputs()
    ply = told(liar, "reuse_seq_move")
    seq = re.search(
        rf"^liar: reuse_seq_move at ply {ply}: a move with seq (\d+)", liar.output, re.M
    )
    assert seq, liar.output
    liar_key = load_profile_identity("liar", table.home).public_key
    named = r"peer \S+ \(Liar\)"
    deed = f"signed two different records with seq {seq[1]}"
    for proc in (table.procs[0], table.procs[1], table.procs[3]):
        assert re.search(
            rf"^HALTED at ply {ply - 1}: {named} {deed} "
            rf"\(an ACK of ply {ply - 1}, then a MOVE for ply {ply}\)$",
            proc.output,
            re.M,
        ), proc.output
        verdict = re.findall(r"^verdict: (.*)$", proc.output, re.M)[-1]
        assert re.fullmatch(rf"{named} {deed}", verdict), proc.output
        halt = halt_evidence(proc)
        assert halt["kind"] == "equivocation" and halt["culprits"] == [liar_key.hex()]
        # seqs are per author: another peer's record may carry the same number
        pair = [
            r for r in halt["records"] if r["seq"] == int(seq[1]) and r["author"] == liar_key.hex()
        ]
        assert sorted(r["kind"] for r in pair) == ["ACK", "MOVE"], halt
        assert chain_line(proc.output)[0] == ply - 1  # the move never entered the chain
        # of the pair, only the ACK is in the file: its only problems are the HALTs
        problems = re.findall(r"^invalid: (.*)$", verify(table, proc).stdout, re.M)
        assert problems and all(" halted the table at ply " in p for p in problems), problems
    done = verify(table, liar)  # its own file, written ahead, holds both
    assert re.search(rf"^invalid: .*\(Liar\) {deed}: records \d+ and \d+$", done.stdout, re.M)


def test_a_liar_connected_but_idle_is_voted_off_and_a_bot_finishes_its_seat(
    table: Table,
) -> None:
    """It keeps its links up (heartbeats, presence) but from ply 6 on neither moves nor acks:
    past the idle timeout the others vote it off, a bot of the host's takes seat 3."""
    liar = four_with_a_liar(table, "idle@6", "--idle-timeout", "2", "--away-timeout", "60")
    codes = table.finish()
    host, p2, _, p4 = table.procs
    honest = (host, p2, p4)
    assert [codes[0], codes[1], codes[3]] == [0, 0, 0], table.outputs()
    assert told(liar, "idle") == 6
    same = {chain_line(proc.output) for proc in honest}
    assert len(same) == 1, table.outputs()
    plies, final, _digest = same.pop()
    assert final == plies > 6
    named = r"peer \S+ \(Liar\)"
    for proc in honest:
        removal = [line for line in ply_lines(proc.output) if "removed; bots take seats" in line]
        assert len(removal) == 1, proc.output
        assert re.search(rf"\. Host +{named} removed; bots take seats \[3\]", removal[0])
        assert int(removal[0].split(".")[0]) >= 6
        assert re.search(r"^vote: P2 votes to remove Liar", proc.output, re.M)
        assert not re.search(r"^presence: Liar is away", proc.output, re.M)  # it was there
        game = proc.output.split("\nResult: ")[0]  # after it, a goodbye is just a goodbye
        assert not re.search(r"^link: .*Liar", game, re.M)  # its links never dropped
        assert "Result: " in proc.output and "Traceback" not in proc.output
        done = verify(table, proc)
        assert done.returncode == 0, done.stdout


def verify(table: Table, proc: Proc) -> subprocess.CompletedProcess[str]:
    (path,) = (table.home / "profiles" / proc.name / "games").glob("*.palabre-log")
    return subprocess.run(
        [sys.executable, "-m", "client", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_a_flood_of_chat_and_pointing_is_dropped_past_a_persons_pace_and_told_once(
    table: Table,
) -> None:
    """10,000 chat records and 20,000 pointing records, validly signed by a seated liar, at
    once: each honest peer takes a person's pace of them (a burst, then a steady rate), drops
    the rest before holding, logging or passing them on, tells each burst once, and the game
    plays on; memory and the game file stay small."""
    table.host("consensus", *FAST, faults="memory=1")
    table.join("P2", "--seat", "2", *FAST)
    table.join("Liar", "--seat", "3", *FAST, lies="flood_signed@3:10000;point_flood@3:20000")
    table.join("P4", "--seat", "4", *FAST)
    began = time.monotonic()
    codes = table.finish(timeout=180)
    elapsed = time.monotonic() - began
    assert codes == [0, 0, 0, 0], table.outputs()
    same_chains(table)
    host = table.procs[0]
    named = r"peer \S+ \(Liar\)"
    for proc in (host, table.procs[1], table.procs[3]):
        for what, total, pattern, (burst, per_second) in (
            ("lines", 10_000, rf"^chat: {named}: flood \d+ of 10000$", RATES[CHAT]),
            ("pointings", 20_000, rf"^point: {named} at ply ", RATES[POINT]),
        ):
            shown = len(re.findall(pattern, proc.output, re.M))
            told_lines = re.findall(
                rf"^flood: {named} is flooding the table; ([\d,]+) {what} dropped\.$",
                proc.output,
                re.M,
            )
            dropped = sum(int(count.replace(",", "")) for count in told_lines)
            print(f"{proc.name}: {what}: {shown} shown, {dropped} dropped, told {len(told_lines)}x")
            # told once per burst: a burst ends after FLOOD_QUIET without drops, or is told
            # every FLOOD_REPORT_EVERY while it lasts (longer on a loaded machine)
            assert 1 <= len(told_lines) <= 1 + elapsed / FLOOD_QUIET, proc.output
            assert len(told_lines) * 100 < dropped
            # each counted once (what the liar had not sent when the game ended is neither)
            assert shown + dropped <= total and dropped > 0, proc.output
            # a person's pace: the burst, then the steady rate for as long as the game lasted
            # (longer on a loaded machine, so the bound is the rate's, not a fixed count)
            assert shown <= burst + per_second * elapsed, (shown, elapsed)
        (path,) = (table.home / "profiles" / proc.name / "games").glob("*.palabre-log")
        print(f"{proc.name}: game file {path.stat().st_size} bytes")
        assert path.stat().st_size < 2 * MAX_HELD_OUTSIDE_BYTES
        assert "Traceback" not in proc.output
    start, peak = (
        int(re.search(rf"^faulty_peer: {what}: (\d+) KiB$", host.output, re.M)[1])  # type: ignore[index]
        for what in ("memory at start", "peak memory after start")
    )
    print(f"host memory: {start} KiB at START, peak {peak} KiB after (+{peak - start} KiB)")
    assert peak - start < 24 * 1024


def evidence_bytes(table: Table, proc: Proc) -> tuple[int, int]:
    """How many evidence files ``proc`` wrote, and their bytes."""
    games = table.home / "profiles" / proc.name / "games"
    files = [path for path in games.glob("*.json") if path.name != INDEX_NAME]  # not evidence
    return len(files), sum(path.stat().st_size for path in files)


def test_a_flood_of_refused_records_writes_a_bounded_evidence_and_closes_the_outsider(
    table: Table,
) -> None:
    """300 records of almost 64 KiB by a key not at the table, on a second link: not
    evidence of anything, so no file; the link is closed past a few.  Then 300 malformed
    chats of almost 64 KiB signed by the liar's own key: evidence, within its budget."""
    liar = four_with_a_liar(table, "outsider_flood@2:300;rejected_flood@4:300")
    codes = table.finish(timeout=120)
    assert codes == [0, 0, 0, 0], table.outputs()
    same_chains(table)
    told(liar, "outsider_flood")
    told(liar, "rejected_flood")
    sent = re.search(r"^liar: outsider_flood: sent (\d+) of 300 records; (.*)$", liar.output, re.M)
    assert sent, liar.output
    print(f"outsider records sent before the host closed the link: {sent[1]}; {sent[2]}")
    assert int(sent[1]) < 300 and "too many records" in sent[2], liar.output
    for proc in (table.procs[0], table.procs[1], table.procs[3]):
        count, size = evidence_bytes(table, proc)
        print(f"{proc.name}: {count} evidence files, {size} bytes")
        files = evidence_files(table, proc)
        assert all(f["kind"] == "rejected" for f in files), [f["kind"] for f in files]
        assert count <= MAX_EVIDENCE_FILES_PER_AUTHOR and size <= MAX_EVIDENCE_BYTES_PER_AUTHOR
        assert count >= 1  # the first lies by a seated key are kept
        assert "Traceback" not in proc.output
