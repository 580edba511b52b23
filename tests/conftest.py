"""Suite-wide settings: Qt runs offscreen, Hypothesis never races the clock, Ctrl-C works,
a leaked file fails the test file that leaked it."""

from __future__ import annotations

import gc
import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Tests never multicast on the machine's own LAN: hosts announce nothing and windows browse
# nothing (client/runtime/mdns.py).  The namespace tests turn mDNS back on inside their namespaces.
os.environ["PALABRE_MDNS"] = "off"

# A suite started in the background by a non-interactive shell (``scripts/check &``,
# ``nohup``) inherits SIGINT ignored, and so would every palabre process it starts: the tests
# of Ctrl-C, Ctrl-Break and leaving on SIGINT would then see nothing happen.  A handler (not
# SIG_IGN) is reset to the default at exec, so the peers the tests spawn get Ctrl-C back too.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# These machines are shared and noisy: a deadline would make tests flaky, not faster.
settings.register_profile("palabre", deadline=None, max_examples=100)
settings.load_profile("palabre")


@pytest.fixture(autouse=True, scope="module")
def _collect_what_the_module_left() -> Iterator[None]:
    """Collect at the end of each test file, so that a file or pipe a test forgot to close
    warns (``ResourceWarning``, an error in pyproject.toml) in that file's last test, rather
    than in whatever test the collector happened to run in later on the same worker."""
    yield
    gc.collect()


def pytest_runtest_logreport(report):  # type: ignore[no-untyped-def]
    """In CI (``PALABRE_FORBID_SKIPS=1``, set by ``.ci/run``) a skipped test is a failure.

    Tests that need root or a display skip on a developer's machine; CI has both, so a skip
    there means a check silently did not run.
    """
    if os.environ.get("PALABRE_FORBID_SKIPS") == "1" and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which must run every check: {reason}"
