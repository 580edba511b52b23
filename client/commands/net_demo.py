"""``palabre demo``: a whole game between bots, one process per peer, over loopback TCP.

The demo starts ``palabre host`` and then ``palabre join`` for the other peers, as separate
processes with their own profiles in a temporary ``PALABRE_HOME``, every seat played by a
bot (``--bot``; seats beyond the peers are bots the host runs).  It prints the host's plies
as they become final (every peer acked the host's chain digest), then checks what each peer
holds: every process ended (exit 0), every ply final at every peer, the same chain of ply
records in every game file and the same final chain digest.  Each peer's game file
(``peer1.palabre-log`` …) is kept in ``--out DIR`` (never over a file already there), else in
a new folder of the profile's ``demos/``; the demo says where, and how to verify one.

Bots are seeded by ``--seed`` and seat, and a bot is asked only for its own seat's moves, so
the game is the one ``palabre demo --local`` plays in one process with the same seed.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import client
from client.rules.chain import Chain
from client.rules.errors import PlyRejected
from client.rules.net_adapter import open_envelope, record_from_net
from client.rules.plies import PLY_RULES
from client.rules.records import START
from client.rules.start import StartRefused, open_start
from engines import AnyEngine, find_engine
from net.errors import DecodeError, IdentityError, LogFileError
from net.fsutil import NO_INHERIT
from net.identity import profile_dir
from net.invite import Invite, parse_invite
from net.logfile import read_log
from net.records import open_record

__all__ = ["PeerResult", "check_chains", "file_chain", "run_net_demo"]

TIMEOUT = 600.0
_CHAIN = re.compile(r"chain: (\d+) plies, (\d+) final here, digest ([0-9a-f]{64})")
_PLY = re.compile(r"^\s*\d+\. ")


@dataclass(frozen=True)
class PeerResult:
    name: str
    code: int
    output: str
    game_file: Path | None

    @property
    def chain(self) -> tuple[int, int, str] | None:
        """(plies, final here, chain digest) from the peer's last ``chain:`` line."""
        found = _CHAIN.findall(self.output)
        return (int(found[-1][0]), int(found[-1][1]), found[-1][2]) if found else None


def _command(profile: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "client", "--profile", profile, *args]


def _environment(home: Path) -> dict[str, str]:
    root = str(Path(client.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH", "")
    return {
        **os.environ,
        "PALABRE_HOME": str(home),
        "PYTHONPATH": root + (os.pathsep + path if path else ""),
        "PYTHONUNBUFFERED": "1",
    }


def run_net_demo(
    game: str,
    seed: int,
    pace_ms: int,
    seats: int | None,
    peers: int | None,
    out_dir: str | None,
    profile: str = "default",
    out: TextIO = sys.stdout,
) -> int:
    """Play the demo; the exit code (0 when every peer holds the same, final chain)."""
    engine = find_engine(game)
    params: dict[str, int | str] = dict(engine.sample_params[0]) if engine.sample_params else {}
    if seats is not None:
        params["seats"] = seats
    seat_count = engine.seat_count(engine.initial_state(params))
    count = min(seat_count, 4) if peers is None else peers
    if not 1 <= count <= min(seat_count, 16):
        print(
            f"palabre: --peers must be from 1 to {min(seat_count, 16)} for {game} "
            f"({seat_count} seats)",
            file=sys.stderr,
        )
        return 2
    try:
        keep = _keep_dir(out_dir, profile, game, seed, count)
    except (OSError, IdentityError) as error:
        print(f"palabre: {error}", file=sys.stderr)
        return 2
    # Every peer gets its own throwaway profile (its key); only the game files are kept.
    with tempfile.TemporaryDirectory(prefix="palabre-demo-") as temp:
        home = Path(temp)
        results = _play(home, game, params, seed, pace_ms, seat_count, count, out)
        code = check_chains(results, out)
        _keep(results, keep, out)
    return code


def _keep_dir(out_dir: str | None, profile: str, game: str, seed: int, count: int) -> Path:
    """Where the game files go: ``--out DIR`` when none of them is there yet (``OSError``
    otherwise: a demo never writes over a file), else a new folder in the profile."""
    if out_dir is not None:
        directory = Path(out_dir)
        taken = [f.name for f in _targets(directory, count) if f.exists() or f.is_symlink()]
        if taken:
            raise FileExistsError(
                f"--out {directory}: {', '.join(taken)} already there; the demo does not "
                "write over a file (give another folder, or remove them)"
            )
        directory.mkdir(parents=True, exist_ok=True)
        return directory
    demos = profile_dir(profile) / "demos"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    demos.mkdir(parents=True, exist_ok=True)
    for n in itertools.count(1):
        directory = demos / (f"{game}-seed{seed}-{stamp}" + ("" if n == 1 else f"-{n}"))
        try:
            directory.mkdir()
        except FileExistsError:
            continue
        return directory
    raise AssertionError("unreachable")


def _targets(directory: Path, count: int) -> list[Path]:
    return [directory / f"peer{n}.palabre-log" for n in range(1, count + 1)]


def _play(
    home: Path,
    game: str,
    params: dict[str, int | str],
    seed: int,
    pace_ms: int,
    seat_count: int,
    count: int,
    out: TextIO,
) -> list[PeerResult]:
    env = _environment(home)
    common = ["--bot", "--headless", "--bot-delay", str(pace_ms), "--seed", str(seed)]
    host_args = ["host", "--game", game, "--port", "0", "--bots", str(seat_count - count)]
    if "seats" in params:
        host_args += ["--seats", str(params["seats"])]
    print(
        f"palabre demo: {game}, {count} peer processes over loopback TCP, "
        f"{seat_count} seats played by bots, seed {seed}",
        file=out,
        flush=True,
    )
    logs = [home / f"peer{n}.out" for n in range(1, count + 1)]
    started = time.monotonic()
    with open(home / "peer1.err", "w") as host_err:
        host = subprocess.Popen(
            _command("peer1", *host_args, *common, "--name", "Peer 1"),
            stdout=subprocess.PIPE,
            stderr=host_err,
            text=True,
            env=env,
        )
    assert host.stdout is not None
    lines: list[str] = []
    invite: Invite | None = None
    for line in host.stdout:
        lines.append(line)
        if line.startswith("Invite: "):
            invite = parse_invite(line.removeprefix("Invite: "))
            break
    joiners: list[subprocess.Popen[str]] = []
    if invite is not None:
        loopback = Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint)
        for n in range(2, count + 1):
            with open(logs[n - 1], "w") as sink:
                joiners.append(
                    subprocess.Popen(
                        _command(f"peer{n}", "join", str(loopback), *common, "--name", f"Peer {n}"),
                        stdout=sink,
                        stderr=subprocess.STDOUT,
                        text=True,
                        env=env,
                    )
                )
    for line in host.stdout:
        lines.append(line)
        if _PLY.match(line) or line.startswith(("Result:", "REJECTED", "HALTED", "LOST")):
            print(line, end="", file=out, flush=True)
    codes = [_wait(host, started)] + [_wait(joiner, started) for joiner in joiners]
    lines.append((home / "peer1.err").read_text())
    outputs = ["".join(lines)] + [logs[n].read_text() for n in range(1, len(joiners) + 1)]
    games = home / "profiles"
    results = []
    for n, (code, output) in enumerate(zip(codes, outputs, strict=True), 1):
        found = sorted((games / f"peer{n}" / "games").glob("*.palabre-log"))
        results.append(PeerResult(f"peer {n}", code, output, found[0] if found else None))
    if invite is None:
        results[0] = PeerResult("peer 1", results[0].code or 1, results[0].output, None)
    return results


def _wait(process: subprocess.Popen[str], started: float) -> int:
    try:
        return process.wait(timeout=max(1.0, TIMEOUT - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return -9


def file_chain(path: Path, engine_for: Callable[[str], AnyEngine] = find_engine) -> list[bytes]:
    """The record hashes of the chain a game file holds: its ply records, in file order, that
    extend the chain from its START (a record the peer signed but the table refused, kept by
    write-ahead, is skipped).  ``LogFileError`` if the file cannot be read; [] without START.
    """
    records = []
    for data in read_log(path).records:
        try:
            records.append(record_from_net(open_record(data)))
        except DecodeError:
            continue
    if not records or records[0].kind != START:
        return []
    try:
        start, engine = open_start(records[0], engine_for)
    except StartRefused:
        return []
    chain = Chain(start, engine, open_envelope, PLY_RULES)
    for record in records[1:]:
        if chain.is_ply_kind(record.kind):
            try:
                chain.append(chain.check(record))
            except PlyRejected:
                continue
    return [state.record.record_hash for state in chain.states[1:]]


def check_chains(results: list[PeerResult], out: TextIO) -> int:
    """Compare what every peer holds; print the verdict; 0 when all agree and all is final."""
    problems: list[str] = []
    for result in results:
        if result.code != 0:
            tail = "\n".join(result.output.strip().splitlines()[-5:])
            problems.append(f"{result.name} exited with code {result.code}:\n{tail}")
        if result.chain is None:
            problems.append(f"{result.name} printed no chain")
        elif result.chain[1] != result.chain[0]:
            problems.append(f"{result.name}: only {result.chain[1]} of {result.chain[0]} final")
    chains = {r.chain[::2] for r in results if r.chain is not None}
    if len(chains) > 1:
        problems.append(f"the peers end on different chains: {sorted(chains)}")
    plies: dict[str, list[bytes]] = {}
    for result in results:
        if result.game_file is None:
            problems.append(f"{result.name} left no game file")
            continue
        try:
            plies[result.name] = file_chain(result.game_file)
        except LogFileError as error:
            problems.append(f"{result.name}'s game file: {error}")
    if len({tuple(hashes) for hashes in plies.values()}) > 1:
        problems.append("the game files hold different chains")
    elif (
        results[0].chain is not None
        and plies
        and len(next(iter(plies.values()))) != results[0].chain[0]
    ):
        problems.append("the game files do not hold the whole chain")
    if problems:
        print("palabre demo: the peers do not agree:", file=out)
        for problem in problems:
            print(f"  - {problem}", file=out)
        return 1
    ply_count, _, digest = results[0].chain or (0, 0, "")
    print(
        f"All {len(results)} peers hold the same chain: {ply_count} plies, every one final at "
        f"every peer; final chain digest {digest}",
        file=out,
        flush=True,
    )
    return 0


def _copy_private(source: Path, target: Path) -> None:
    """Copy a game file as private as the profile keeps it (mode 0600, LOG_FORMAT.md section
    1: it names the players' keys and holds their chat).  ``O_EXCL``: a file that appeared
    while the game was played is not written over either."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_INHERIT, 0o600)
    with open(source, "rb") as original, os.fdopen(fd, "wb") as copy:
        shutil.copyfileobj(original, copy)


def _keep(results: list[PeerResult], directory: Path, out: TextIO) -> None:
    kept: list[Path] = []
    for target, result in zip(_targets(directory, len(results)), results, strict=True):
        if result.game_file is None:
            continue
        try:
            _copy_private(result.game_file, target)
        except OSError as error:
            print(f"palabre: could not keep {result.name}'s game file: {error}", file=sys.stderr)
            continue
        kept.append(target)
    if kept:
        print(f"The game files are kept in {directory}", file=out)
        print(f"Check one, trusting none of the players: {_palabre()} verify {kept[0]}", file=out)


def _palabre() -> str:
    """How to run palabre from here: the command, else the repository's wrapper script."""
    if shutil.which("palabre"):
        return "palabre"
    script = Path(client.__file__).resolve().parent.parent / "scripts" / "palabre"
    if script.exists():
        try:
            return str(script.relative_to(Path.cwd()))
        except ValueError:
            return str(script)
    return f"{sys.executable} -m client"
