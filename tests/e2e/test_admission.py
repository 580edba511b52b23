"""Admission from the command line (issue 13): ``palabre host --secret`` and trust on first
use, with real processes over loopback TCP."""

from __future__ import annotations

import re
import signal

import pytest

from net.identity import load_profile_identity
from tests.e2e.tables import Table, chain_line
from tests.e2e.test_table import FAST

pytestmark = pytest.mark.e2e


def test_a_secret_table_admits_its_invite_only_and_a_known_name_with_a_new_key_is_flagged(
    table: Table,
) -> None:
    host = table.host("discorder", "--secret", *FAST)
    assert table.invite is not None and table.invite.secret is not None
    secret = table.invite.secret
    assert re.search(rf"^Invite: palabre://\S+\?s={secret}#", host.output, re.M)
    address = f"127.0.0.1:{table.invite.port}"
    assert f"--secret - and type the table secret {secret}" in host.output
    eve = table.join("Eve", *FAST, target=address)
    assert eve.process.wait(timeout=30) == 4
    assert "join refused: the host refused the join: the joiner" in eve.output
    assert "did not give the table secret" in eve.output
    assert "join again with the invite (palabre join - reads it), or with --secret -" in eve.output
    guess = table.join("Guess", *FAST, "--secret", "swordfish-42", target=address)
    assert guess.process.wait(timeout=30) == 4
    assert "did not prove it knows the table secret" in guess.output
    assert "join again with" not in guess.output  # it gave one: a wrong one, not none
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


def test_every_peer_of_a_secret_table_asks_the_secret_of_whoever_dials_it(table: Table) -> None:
    """After START every joiner listens too (the mesh, rejoins, spectators): each listener
    asks the table secret, not only the host's.  At P2's address: a peer of START dialing
    without it (the liar, its own key), a spectator without it or with a wrong one and a
    rejoin without it are refused; a spectator and the rejoin that prove it are admitted."""
    slow = ("--bot", "--bot-delay", "40")
    table.host("consensus", "--secret", *slow)
    assert table.invite is not None and table.invite.secret is not None
    secret = table.invite.secret
    p2 = table.join("P2", "--seat", "2", *slow)
    liar = table.join("P3", "--seat", "3", *slow, lies="dial_no_secret@4:P2")
    p4 = table.join("P4", "--seat", "4", *slow)
    port = int(p2.wait_for(r"^Listening on port (\d+)")[1])
    at_p2 = f"127.0.0.1:{port}"
    p4.wait_for(r"^\s*6\. ", timeout=60)
    p4.process.send_signal(signal.SIGKILL)  # the game waits for P4 from here
    p4.code = p4.process.wait()

    refused = {}
    for name, extra in (
        ("eve", ("--watch",)),
        ("guess", ("--watch", "--secret", "swordfish-42")),
        ("p4-nosecret", ("--seat", "4", *slow)),
    ):
        profile = "p4" if name == "p4-nosecret" else name
        proc = table.join(name.capitalize(), *extra, target=at_p2, profile=profile, run=name)
        assert proc.process.wait(timeout=30) == 4, proc.output
        refused[name] = proc.output
    assert "did not give the table secret" in refused["eve"]
    assert "did not prove it knows the table secret" in refused["guess"]
    assert "did not give the table secret" in refused["p4-nosecret"]
    watcher = table.join("Ann", "--watch", "--secret", secret, target=at_p2)
    again = table.join(
        "P4", "--seat", "4", *slow, "--secret", secret, target=at_p2, profile="p4", run="p4-again"
    )
    codes = table.finish()
    assert codes == [0, 0, 0, -signal.SIGKILL, 4, 4, 4, 0, 0], table.outputs()
    assert re.search(r"^Rejoined: took the table up again from ", again.output, re.M)
    assert "your seats: none (watching)" in watcher.output
    assert len({chain_line(p.output) for p in table.procs if p.code == 0}) == 1, table.outputs()

    # P2 said who it refused, and why; the liar's own key got no further than the others
    for profile, why in (
        ("p3", "did not give the table secret"),
        ("eve", "did not give the table secret"),
        ("guess", "did not prove it knows the table secret"),
        ("p4", "did not give the table secret"),
    ):
        fp = load_profile_identity(profile, table.home).fingerprint[:9]
        assert re.search(
            rf"^link: 127\.0\.0\.1:\d+: no link: the joiner {fp}… {why}", p2.output, re.M
        ), (profile, p2.output)
    assert re.search(
        r"^liar: (dial_no_secret: the link closed|the second link closed early): "
        r".*did not give the table secret",
        liar.output,
        re.M,
    ), liar.output
