"""The conformance corpus (conformance/): ``palabre verify`` says of every log what the
manifest says, through the command's own entry point; and the corpus regenerates byte for
byte from its seeds (the files kept were made by an earlier run of the same code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from client.commands.cli import main
from client.logs.verify_report import PROBLEM_CODES
from net.logfile import MAGIC, parse_log
from tests.conformance.corpus import write_logs
from tests.conformance.corpus_keys import KeyBook

CORPUS = Path(__file__).resolve().parents[2] / "conformance"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
LOGS = MANIFEST["logs"]
BATCHES = 6
"""The logs are verified in this many tests, so that xdist spreads them over its workers."""


def verify_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["verify", "--json", str(path)])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_every_log_verifies_as_the_manifest_says(
    batch: int, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = []
    for entry in LOGS[batch::BATCHES]:
        code, report = verify_json(CORPUS / entry["file"], capsys)
        problems = report["problems"]
        first = {"ply": problems[0]["ply"], "code": problems[0]["code"]} if problems else None
        if (code, report["exit"], first) != (entry["exit"], entry["exit"], entry["first"]):
            wrong.append((entry["file"], code, first, entry["exit"], entry["first"]))
    assert wrong == []


def test_the_corpus_covers_the_checks_and_the_size_promised() -> None:
    crafted = [e for e in LOGS if e["file"].startswith("crafted/")]
    assert len(crafted) >= 200
    games = {e["file"].split("/")[1].split("-")[0] for e in LOGS}
    assert games == {"consensus", "forbans", "cognes", "discorder"}
    firsts = {e["first"]["code"] for e in LOGS if e["first"]}
    # every problem code is some log's first problem but these (README.md says why)
    not_first = {
        "unexpected-kind",
        "fork",
        "claim-beyond-log",
        "halt-bad-record",
        "not-a-ply",
        "wrong-ply",
        "unreplayed",
    }
    assert firsts == set(PROBLEM_CODES) - not_first
    assert {e["exit"] for e in LOGS} == {0, 1, 2, 3}
    real = " ".join(e["what"] for e in LOGS if e["file"].startswith("real/"))
    for shown in (
        "chat",
        "takeback",
        "lapsed",
        "agreed draw",
        "REMOVE",
        "abandoned",
        "restarts",
        "spectator",
        "halts",
    ):
        assert shown in real, shown


@pytest.mark.parametrize("folder", ["real", "crafted"])
def test_regenerating_the_corpus_gives_the_same_bytes(folder: str, tmp_path: Path) -> None:
    entries = write_logs(tmp_path, folder, KeyBook())
    assert entries == [e for e in LOGS if e["file"].startswith(f"{folder}/")]
    for entry in entries:
        made = (tmp_path / entry["file"]).read_bytes()
        assert made == (CORPUS / entry["file"]).read_bytes(), entry["file"]


def test_the_keys_kept_are_the_keys_that_signed() -> None:
    """keys.json holds a secret for every key that signed a record of the corpus, and each
    secret is that key's (so anyone can sign more cases)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    kept = json.loads((CORPUS / "keys.json").read_text(encoding="utf-8"))["keys"]
    for key in kept:
        private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(key["secret"]))
        public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        assert public.hex() == key["public"]
    authors = set()
    for entry in LOGS:
        data = (CORPUS / entry["file"]).read_bytes()
        if not data.startswith(MAGIC):
            continue  # the bad-magic cases
        for record in parse_log(data).records:
            if record[:3] == b"\x93\xc4\x20":
                authors.add(record[3:35].hex())
    authors.discard(bytes(32).hex())  # the not-envelope cases' zero key signs nothing
    assert authors - {key["public"] for key in kept} == set()
