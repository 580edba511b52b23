"""Global options where people type them: before or after the subcommand."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from client.commands.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _id(home: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "client", *args], cwd=ROOT, capture_output=True, text=True,
        timeout=60, env={**os.environ, "PALABRE_HOME": str(home)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_profile_is_taken_after_the_subcommand_as_before_it(tmp_path: Path) -> None:
    after = _id(tmp_path, "id", "--profile", "ana")
    assert _id(tmp_path, "--profile", "ana", "id") == after
    assert _id(tmp_path, "id") != after  # the default profile is another key
    assert (tmp_path / "profiles" / "ana" / "identity.key").exists()


def test_every_subcommand_takes_the_global_options() -> None:
    parser = build_parser()
    commands = [
        ["host", "--game", "cognes"], ["join", "h:7000"], ["tables"], ["demo"], ["id"],
        ["verify", "f"], ["log", "show", "f"], ["log", "export", "f", "--png", "x.png"],
    ]  # fmt: skip
    for command in commands:
        assert parser.parse_args(command).profile == "default"
        assert parser.parse_args([*command, "--profile", "ana"]).profile == "ana", command
        assert parser.parse_args(["--profile", "bob", *command]).profile == "bob", command
        # Given in both places, the last one wins, as with any repeated option.
        assert parser.parse_args(["--profile", "bob", *command, "--profile", "ana"]).profile == (
            "ana"
        )


def test_the_bot_level_is_read_on_host_and_join() -> None:
    parser = build_parser()
    assert parser.parse_args(["host", "--game", "consensus"]).bot_level == "normal"
    assert (
        parser.parse_args(["host", "--game", "consensus", "--bot-level", "strong"]).bot_level
        == "strong"
    )
    assert parser.parse_args(["join", "h:7000", "--bot-level", "easy"]).bot_level == "easy"
