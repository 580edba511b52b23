"""Guard against the PySide6 reference-count crash (ENVIRONMENT.md).

PySide6 6.12.0 on CPython 3.11 drops a reference to ``None`` on every void Qt call, and the
process aborts with ``Fatal Python error: none_dealloc`` after some thousands of calls: short
test suites pass, a real session dies.  This runs 20,000 void calls (label updates and trio
guest-mode ticks, which post Qt events) in a fresh process and checks it survives.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gui

PROGRAM = """
import trio, qtrio
from PySide6.QtWidgets import QLabel

async def main():
    label = QLabel("start")
    for i in range(20_000):
        label.setText(str(i))
        label.setVisible(i % 2 == 0)
        if i % 10 == 0:
            await trio.sleep(0)   # a guest-mode tick: Qt events posted and run
    print("survived", i + 1)

qtrio.run(main)
"""


def test_twenty_thousand_void_qt_calls_do_not_abort_the_process() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "survived 20000"


def test_the_pinned_pyside6_is_not_a_crashing_release() -> None:
    import PySide6

    major, minor = (int(part) for part in PySide6.__version__.split(".")[:2])
    assert (major, minor) < (6, 12) or sys.version_info >= (3, 12), PySide6.__version__
