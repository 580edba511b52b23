"""Real palabre peers on the hosts of a netlab lab: the harness of the LAN scenarios (issue 12).

``LanTable`` starts ``palabre host`` / ``palabre join`` inside the lab's hosts
(``scripts/netlab exec I``, which execs ``ip netns exec``, which execs palabre: the process
started is palabre itself, so a signal reaches it directly).  Invariants:

* every peer has its own ``PALABRE_HOME`` (``<tmp>/h<I>``, one per lab host), passed through
  the environment, so a restarted peer on the same host finds its profile and game file;
* faults are triggered by what a peer prints (``wait_ply``: the line of ply N, printed when
  N is final at that peer) or writes to its trace (``wait_sent``: a peer behind a cut prints
  nothing when it signs), never by a sleep;
* every command has a bounded wait, and ``close`` kills whatever still runs: the test's
  ``open_lab`` deletes the namespaces afterwards, even when the test failed;
* ``check`` runs ``palabre verify --json`` on every surviving peer's game file and compares
  the chains the files hold (the ply records, in order, as the verifier replays them) and
  their final chain digest with the one each peer printed.

Peers run ``python -m client`` unless a fault (``tests.e2e.faulty_peer``) or a delay
(``tests.lan.delay``) is asked, in which case they run ``python -m tests.lan.lan_peer``.
Each peer also writes a ``--trace`` (when each ply was sent and became final there, with
``time.monotonic()``, which namespaces share) for the measurements.  With
``PALABRE_LAN_REPORT=FILE`` set, each scenario appends its measurements to FILE as one
JSON line (``docs/RELIABILITY.md`` is written from them).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from client.logs.verifier import verify_file
from tests.e2e.tables import ROOT, Proc, chain_line, ply_lines
from tests.netlab import Lab, open_lab

__all__ = ["LanPeer", "LanTable", "Verified", "lan_table", "records_lost", "report"]

PORT = 7000
"""palabre's default port: every lab host is its own machine, so they never collide."""
FAST = ("--bot", "--headless", "--bot-delay", "20")
"""Bots that play at once (20 ms: peers still interleave as on a LAN)."""
TIMEOUT = 120.0


@dataclass
class LanPeer:
    name: str
    index: int
    home: Path
    proc: Proc
    trace: Path
    restarts: int = 0

    @property
    def output(self) -> str:
        return self.proc.output

    @property
    def profile(self) -> str:
        return f"p{self.index}"

    @property
    def code(self) -> int | None:
        return self.proc.code

    def game_file(self) -> Path | None:
        found = sorted((self.home / "profiles" / self.profile / "games").glob("*.palabre-log"))
        return found[0] if found else None

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        return self.proc.wait_for(pattern, timeout)

    def wait_ply(self, ply: int, timeout: float = 60.0) -> None:
        """Until ply ``ply`` is final here (its line is printed)."""
        self.wait_for(rf"^\s*{ply}\. ", timeout)

    def wait_sent(self, ply: int, timeout: float = 60.0) -> dict[str, Any]:
        """Until this peer has sent its record for ply ``ply`` (its trace says so); the
        trace's event.  A peer cut from the others prints nothing then: its trace is the
        only witness."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.trace_events():
                if event["ev"] == "sent" and event["ply"] == ply:
                    return event
            if time.monotonic() > deadline or self.proc.process.poll() is not None:
                raise AssertionError(f"{self.name} sent nothing for ply {ply}\n{self.output}")
            time.sleep(0.05)

    def trace_events(self) -> list[dict[str, Any]]:
        if not self.trace.exists():
            return []
        # Only whole lines: the peer may be writing the last one as we read.
        lines = self.trace.read_text().split("\n")[:-1]
        return [json.loads(line) for line in lines if line]


@dataclass(frozen=True)
class Verified:
    peer: str
    code: int
    report: dict[str, Any]
    chain: tuple[bytes, ...]
    """The ply records of the chain the verifier replayed from the file, in order."""
    digest: str
    """The chain digest after its last ply."""


@dataclass
class LanTable:
    lab: Lab
    root: Path
    peers: list[LanPeer] = field(default_factory=list)
    retired: list[LanPeer] = field(default_factory=list)

    # --- starting peers ----------------------------------------------------------------------
    def address(self, index: int) -> str:
        return self.lab.address(index)

    def start(
        self, index: int, args: list[str], *, faults: str = "", delay: str = "", name: str = ""
    ) -> LanPeer:
        """Run palabre with ``args`` on lab host ``index`` (its own home and profile)."""
        home = self.root / f"h{index}"
        home.mkdir(parents=True, exist_ok=True)
        runs = sum(1 for p in [*self.peers, *self.retired] if p.index == index)
        name = name or f"h{index}" + (f"-run{runs + 1}" if runs else "")
        out, trace = self.root / f"{name}.out", self.root / f"{name}.trace"
        env = {**os.environ, "PALABRE_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        env["PYTHONPATH"] = str(ROOT)
        for variable, value in (("PALABRE_TEST_FAULTS", faults), ("PALABRE_TEST_DELAY", delay)):
            env.pop(variable, None)
            if value:
                env[variable] = value
        module = "tests.lan.lan_peer" if faults or delay else "client"
        command = [sys.executable, "-m", module, "--profile", f"p{index}", *args]
        command += ["--trace", str(trace)]
        with open(out, "w") as sink:
            process = self.lab.popen(
                index, *command, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT, env=env
            )
        peer = LanPeer(name, index, home, Proc(name, process, out), trace, runs)
        self.peers.append(peer)
        return peer

    def host(self, index: int = 1, *extra: str, game: str = "consensus", **kw: str) -> LanPeer:
        """``palabre host --game G --bot --headless`` on host ``index``; waits for the invite."""
        args = ["host", "--game", game, "--port", str(PORT), *FAST, "--name", f"H{index}"]
        peer = self.start(index, [*args, *extra], **kw)
        peer.wait_for(r"^Invite: \S+$", 30)
        return peer

    def join(self, index: int, *extra: str, target: str | None = None, **kw: str) -> LanPeer:
        """``palabre join ADDRESS --bot --headless`` on host ``index``, to host 1 by default,
        at seat ``index`` unless watching (fixed seats: the bots, seeded by seat, then play
        the same game every time)."""
        target = target or self.address(1)
        seat = [] if "--watch" in extra else ["--seat", str(index)]
        args = ["join", target, *FAST, *seat, "--name", f"H{index}", *extra]
        return self.start(index, args, **kw)

    # --- faults ------------------------------------------------------------------------------
    def kill(self, peer: LanPeer, sig: int = signal.SIGKILL) -> None:
        peer.proc.process.send_signal(sig)
        peer.proc.code = peer.proc.process.wait(timeout=30)
        self.peers.remove(peer)
        self.retired.append(peer)

    def netlab(self, *args: str) -> None:
        self.lab.run(*args)

    # --- the end -----------------------------------------------------------------------------
    def finish(self, timeout: float = TIMEOUT) -> dict[str, int]:
        """Wait for every running peer (killing what is left after ``timeout``); exit codes."""
        deadline = time.monotonic() + timeout
        for peer in self.peers:
            process = peer.proc.process
            try:
                peer.proc.code = process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                peer.proc.code = -process.wait()
        return {peer.name: peer.code if peer.code is not None else -1 for peer in self.peers}

    def close(self) -> None:
        for peer in [*self.peers, *self.retired]:
            if peer.proc.process.poll() is None:
                peer.proc.process.kill()
                peer.proc.process.wait()

    def outputs(self) -> str:
        every = [*self.retired, *self.peers]
        return "\n".join(f"===== {p.name} (exit {p.code})\n{p.output}" for p in every)

    # --- checks ------------------------------------------------------------------------------
    def verify(self, *peers: LanPeer) -> list[Verified]:
        """``palabre verify FILE --json`` on each peer's game file (all at once), and the
        chain each file holds as the verifier replays it (a ply record a REMOVE dropped is
        not in it, though it sits in the file of the peer that signed it)."""
        runs = []
        for peer in peers:
            path = peer.game_file()
            assert path is not None, f"{peer.name} left no game file\n{self.outputs()}"
            command = [sys.executable, "-m", "client", "verify", str(path), "--json"]
            runs.append((peer, path, subprocess.Popen(command, cwd=ROOT, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)))  # fmt: skip
        results = []
        for peer, path, process in runs:
            out, err = process.communicate(timeout=60)
            assert "Traceback" not in err, err
            replayed = verify_file(path).chain
            assert replayed is not None, f"{peer.name}'s file holds no chain"
            chain = tuple(state.record.record_hash for state in replayed.states[1:])
            digest = replayed.head.chain_digest.hex()
            results.append(Verified(peer.name, process.returncode, json.loads(out), chain, digest))
        return results

    def check(self, expected_code: int = 0) -> list[Verified]:
        """Every surviving peer's file verifies with ``expected_code`` and they hold one chain,
        the one each peer printed last."""
        results = self.verify(*self.peers)
        for result in results:
            assert result.code == expected_code, (result.peer, result.report, self.outputs())
        chains = {result.chain for result in results}
        assert len(chains) == 1, f"the files hold {len(chains)} different chains\n{self.outputs()}"
        printed = {chain_line(peer.output)[::2] for peer in self.peers}
        assert printed == {(len(results[0].chain), results[0].digest)}, self.outputs()
        return results

    def all_final(self) -> int:
        """Every surviving peer printed every ply as final, the same lines; the ply count."""
        for peer in self.peers:
            plies, final, _ = chain_line(peer.output)
            assert plies == final, f"{peer.name}: {final} of {plies} final\n{self.outputs()}"
        lines = {tuple(ply_lines(peer.output)) for peer in self.peers}
        assert len(lines) == 1, self.outputs()
        return chain_line(self.peers[0].output)[0]

    # --- measurements ------------------------------------------------------------------------
    def halted_peers(self) -> int:
        """Peers that halted the table on a divergence."""
        return sum(1 for peer in [*self.retired, *self.peers] if "HALTED at ply" in peer.output)

    def finals(self) -> dict[int, list[float]]:
        """Ply -> when it became final at each surviving peer (monotonic clock)."""
        found: dict[int, list[float]] = {}
        for peer in self.peers:
            for event in peer.trace_events():
                if event["ev"] == "final":
                    found.setdefault(int(event["ply"]), []).append(float(event["t"]))
        return found

    def latencies(self) -> dict[int, float]:
        """Ply -> seconds from its author sending it to its being final at every surviving
        peer (plies some peer never saw final are left out)."""
        sent, finals = self.sent(), self.finals()
        count = len(self.peers)
        return {
            ply: max(times) - sent[ply]
            for ply, times in finals.items()
            if ply in sent and len(times) == count
        }

    def sent(self) -> dict[int, float]:
        """Ply -> when its author sent it (the last run of each host that sent it)."""
        found: dict[int, float] = {}
        for peer in [*self.retired, *self.peers]:
            for event in peer.trace_events():
                if event["ev"] == "sent":
                    found[int(event["ply"])] = float(event["t"])
        return found


def records_lost(results: list[Verified]) -> int:
    """Ply records some surviving peer's file lacks, against the longest chain among them."""
    longest = max(len(result.chain) for result in results)
    return sum(longest - len(result.chain) for result in results)


@contextmanager
def lan_table(hosts: int, root: Path) -> Iterator[LanTable]:
    """A lab of ``hosts`` hosts and a table on it; every peer killed, then the lab deleted,
    whatever happens."""
    with open_lab(hosts) as lab:
        table = LanTable(lab, root)
        try:
            yield table
        finally:
            table.close()


def report(scenario: str, **measured: Any) -> None:
    """Append one scenario's measurements to ``$PALABRE_LAN_REPORT`` (when set)."""
    path = os.environ.get("PALABRE_LAN_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as sink:
            print(json.dumps({"scenario": scenario, **measured}), file=sink)
