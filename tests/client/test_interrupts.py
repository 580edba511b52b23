"""Ctrl-Break on Windows does what Ctrl-C does (issue 28), checked here with the branch's own
code: Linux has no SIGBREAK, so SIGUSR1, raised for real, stands in for it.

Without the branch, SIGBREAK's default action ends a Windows process at once, so the
``finally`` that sends the leave notice never runs; with it, the signal ends ``trio.run``
by ``KeyboardInterrupt`` like Ctrl-C, cleanup included."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
import trio

from client.commands.interrupts import BREAK_SIGNAL, break_like_ctrl_c

STAND_IN = signal.SIGUSR1


@pytest.fixture
def stand_in() -> Iterator[int]:
    before = signal.getsignal(STAND_IN)
    break_like_ctrl_c(STAND_IN)
    try:
        yield STAND_IN
    finally:
        signal.signal(STAND_IN, before)


def test_break_outside_trio_raises_keyboard_interrupt(stand_in: int) -> None:
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(stand_in)


def test_break_ends_trio_run_like_ctrl_c_and_cleanup_runs(stand_in: int) -> None:
    cleaned: list[str] = []

    async def table() -> None:
        try:
            signal.raise_signal(stand_in)
            await trio.sleep(60)  # woken by the interrupt, not after a minute
        finally:
            cleaned.append("leave notice")

    with pytest.raises(KeyboardInterrupt):
        trio.run(table)
    assert cleaned == ["leave notice"]


def test_break_is_ignored_when_ctrl_c_is(stand_in: int) -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        signal.raise_signal(stand_in)  # no KeyboardInterrupt
    finally:
        signal.signal(signal.SIGINT, before)


def test_nothing_changes_on_a_system_without_the_break_signal() -> None:
    assert BREAK_SIGNAL is None  # this machine is Linux: no SIGBREAK
    before = {signum: signal.getsignal(signum) for signum in signal.valid_signals()}
    break_like_ctrl_c()
    assert {signum: signal.getsignal(signum) for signum in signal.valid_signals()} == before
