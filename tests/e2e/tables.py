"""Running real peer processes on loopback for the end-to-end tests.

``Table.open`` starts a host (``palabre host --port 0``), reads its invite, and ``join``
starts joiners against it; each process's output goes to a file under the test's directory,
and every process shares one ``PALABRE_HOME`` with its own profile.  Processes run either
``python -m client`` (palabre itself) or ``python -m tests.e2e.faulty_peer`` when a fault is
asked for.  ``finish`` waits for every process (bounded) and kills what is left, so a
failing test never leaves peers behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from client.profile.table_files import TableFiles
from net.invite import Invite, parse_invite

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 90.0


@dataclass
class Proc:
    name: str
    process: subprocess.Popen[str]
    out: Path
    code: int | None = None

    @property
    def output(self) -> str:
        return self.out.read_text()

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.output, re.MULTILINE)
            if found:
                return found
            if self.process.poll() is not None:
                found = re.search(pattern, self.output, re.MULTILINE)
                if found:
                    return found
                raise AssertionError(f"{self.name} exited before {pattern!r}:\n{self.output}")
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: no {pattern!r} within {timeout} s:\n{self.output}")


def _close_input(proc: Proc) -> None:
    if proc.process.stdin is not None and not proc.process.stdin.closed:
        with contextlib.suppress(BrokenPipeError):  # typed into by the test, gone since
            proc.process.stdin.close()


def peer_command(profile: str, args: list[str], faults: str = "", lies: str = "") -> list[str]:
    module = "tests.e2e.liar" if lies else "tests.e2e.faulty_peer" if faults else "client"
    return [sys.executable, "-m", module, "--profile", profile, *args]


@dataclass
class Table:
    home: Path
    procs: list[Proc] = field(default_factory=list)
    invite: Invite | None = None

    def env(self, faults: str = "", lies: str = "") -> dict[str, str]:
        env = {**os.environ, "PALABRE_HOME": str(self.home), "PYTHONUNBUFFERED": "1"}
        env.pop("PALABRE_TEST_FAULTS", None)
        env.pop("PALABRE_TEST_LIES", None)
        if faults:
            env["PALABRE_TEST_FAULTS"] = faults
        if lies:
            env["PALABRE_TEST_LIES"] = lies
        return env

    def spawn(
        self,
        name: str,
        args: list[str],
        faults: str = "",
        lies: str = "",
        profile: str | None = None,
        stdin: str | None = None,
        env: dict[str, str] | None = None,
    ) -> Proc:
        """Start a peer; ``profile`` defaults to ``name`` (a restart keeps its profile under
        another name, so each run has its own output file).  ``stdin``: what it reads, then
        the end of input (by default its input stays open, as a terminal nobody types
        into); ``env``: variables added to its environment."""
        out = self.home / f"{name}.out"
        with open(out, "w") as sink:
            process = subprocess.Popen(
                peer_command(profile or name, args, faults, lies),
                cwd=ROOT,
                # a person's peer (no --bot) reads moves from it, and leaves at its end:
                # it stays open, as a terminal nobody types into, until the process ends
                stdin=subprocess.PIPE,
                stdout=sink,
                stderr=subprocess.STDOUT,
                text=True,
                env={**self.env(faults, lies), **(env or {})},
            )
        if stdin is not None and process.stdin is not None:
            process.stdin.write(stdin)
            process.stdin.close()
        proc = Proc(name, process, out)
        self.procs.append(proc)
        return proc

    def host(
        self,
        game: str,
        *extra: str,
        faults: str = "",
        lies: str = "",
        env: dict[str, str] | None = None,
    ) -> Proc:
        args = ["host", "--game", game, "--port", "0", "--headless", "--name", "Host", *extra]
        proc = self.spawn("host", args, faults, lies, env=env)
        found = proc.wait_for(r"^Invite: (\S+)$")
        self.invite = parse_invite(found.group(1))
        return proc

    def loopback_invite(self) -> str:
        assert self.invite is not None
        return str(replace(self.invite, addresses=("127.0.0.1",)))

    def join(
        self,
        name: str,
        *extra: str,
        faults: str = "",
        lies: str = "",
        target: str | None = None,
        profile: str | None = None,
        run: str | None = None,
        stdin: str | None = None,
        env: dict[str, str] | None = None,
    ) -> Proc:
        args = ["join", target or self.loopback_invite(), "--headless", "--name", name, *extra]
        run = run or name.lower().replace(" ", "")
        return self.spawn(run, args, faults, lies, profile, stdin, env)

    def finish(self, timeout: float = TIMEOUT) -> list[int]:
        """Wait for every process (killing stragglers); their exit codes."""
        deadline = time.monotonic() + timeout
        for proc in self.procs:
            try:
                proc.code = proc.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.process.kill()
                proc.code = proc.process.wait()
            _close_input(proc)
        return [proc.code if proc.code is not None else -1 for proc in self.procs]

    def kill(self) -> None:
        for proc in self.procs:
            if proc.process.poll() is None:
                proc.process.kill()
                proc.process.wait()
            _close_input(proc)

    def outputs(self) -> str:
        return "\n".join(f"===== {p.name} (exit {p.code})\n{p.output}" for p in self.procs)


def chain_line(output: str) -> tuple[int, int, str]:
    found = re.findall(r"chain: (\d+) plies, (\d+) final here, digest ([0-9a-f]{64})", output)
    assert found, output
    plies, final, digest = found[-1]
    return int(plies), int(final), digest


def ply_lines(output: str) -> list[str]:
    return re.findall(r"^\s*\d+\. .*$", output, re.MULTILINE)


def verify_game_file(home: Path, profile: str, table_id: bytes) -> subprocess.CompletedProcess[str]:
    """`palabre verify` of a profile's game file of the table, as a user runs it."""
    path = TableFiles(home / "profiles" / profile / "games").path(table_id)
    return subprocess.run(
        [sys.executable, "-m", "client", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PALABRE_HOME": str(home), "PALABRE_MDNS": "off", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
