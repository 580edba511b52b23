"""Admission from the command line (issue 13): ``palabre host --secret`` and trust on first
use, with real processes over loopback TCP."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from net.identity import load_profile_identity
from tests.e2e.tables import Table
from tests.e2e.test_table import FAST

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path)
    yield table
    table.kill()


def test_a_secret_table_admits_its_invite_only_and_a_known_name_with_a_new_key_is_flagged(
    table: Table,
) -> None:
    host = table.host("discorder", "--secret", *FAST)
    assert table.invite is not None and table.invite.secret is not None
    secret = table.invite.secret
    assert re.search(rf"^Invite: palabre://\S+\?s={secret}#", host.output, re.M)
    address = f"127.0.0.1:{table.invite.port}"
    assert f"--secret {shlex.quote(secret)}" in host.output
    eve = table.join("Eve", *FAST, target=address)
    assert eve.process.wait(timeout=30) == 4
    assert "join refused: the host refused the join: the joiner" in eve.output
    assert "did not give the table secret" in eve.output
    guess = table.join("Guess", *FAST, "--secret", "swordfish-42", target=address)
    assert guess.process.wait(timeout=30) == 4
    assert "did not prove it knows the table secret" in guess.output
    table.join("P2", *FAST)  # with the invite, which carries the secret
    assert table.finish() == [0, 4, 4, 0], table.outputs()
    eve_fp = load_profile_identity("eve", table.home).fingerprint[:9]
    assert re.search(
        rf"^link: 127\.0\.0\.1:\d+: no link: the joiner {eve_fp}… did not give the table secret",
        host.output,
        re.M,
    )
    assert "did not prove it knows the table secret" in host.output
    assert "Result: " in host.output and "Traceback" not in table.outputs()

    # a second table in the same homes: someone else calls itself P2
    second = Table(table.home)
    try:
        host2 = second.host("discorder", *FAST)
        impostor = second.spawn(
            "mallory",
            ["join", second.loopback_invite(), "--headless", "--name", "P2", *FAST],
        )
        assert second.finish() == [0, 0], second.outputs()
    finally:
        second.kill()
    p2_fp = load_profile_identity("p2", table.home).fingerprint[:9]
    warning = re.findall(r"^WARNING: (.*)$", host2.output, re.M)
    assert len(warning) == 1, host2.output
    assert warning[0].startswith(
        f"P2 ({load_profile_identity('mallory', table.home).fingerprint[:9]}…) is not the P2 "
    )
    assert f"(key {p2_fp}…)" in warning[0]
    assert "WARNING" not in impostor.output  # mallory never met this host before
