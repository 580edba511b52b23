"""Repeats summarised in a terminal's lines (client/commands/repeats.py), on a clock the test
moves."""

from __future__ import annotations

import io
import logging

from client.commands.repeats import REPEAT_WINDOW, REPEATS_SHOWN, RepeatSummary


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def line(handler: RepeatSummary, text: str, repeat: tuple[str, str] | None = None) -> None:
    fields = {"name": "palabre.terminal", "msg": text, "levelno": logging.INFO}
    handler.handle(logging.makeLogRecord({**fields, "repeat": repeat}))


def test_past_a_few_repeats_are_counted_and_summed_up_once_the_window_is_over() -> None:
    out, clock = io.StringIO(), Clock()
    handler = RepeatSummary(out, clock)
    for n in range(4312):
        line(handler, f"link: 127.0.0.1:{n}: no link", ("127.0.0.1", "refused handshakes"))
    line(handler, "1. seat 1  e2-e4  final")  # other lines go through at once
    assert len(out.getvalue().splitlines()) == REPEATS_SHOWN + 1
    clock.now = REPEAT_WINDOW
    handler.flush_due()
    last = out.getvalue().splitlines()[-1]
    hidden = 4312 - REPEATS_SHOWN
    assert last == f"127.0.0.1: 4,312 refused handshakes in the last 10 s ({hidden:,} not shown)"
    line(handler, "link: 127.0.0.1:1: no link", ("127.0.0.1", "refused handshakes"))
    assert out.getvalue().splitlines()[-1] == "link: 127.0.0.1:1: no link"  # a new window


def test_each_source_has_its_own_count_and_close_tells_what_is_pending() -> None:
    out, clock = io.StringIO(), Clock()
    handler = RepeatSummary(out, clock)
    for source in ("127.0.0.2", "127.0.0.3"):
        for _ in range(REPEATS_SHOWN + 2):
            line(handler, f"REJECTED: from {source}", (source, "refused records"))
    clock.now = 3.0
    handler.close()
    lines = out.getvalue().splitlines()
    assert lines[-2:] == [
        f"127.0.0.2: {REPEATS_SHOWN + 2} refused records in the last 3 s (2 not shown)",
        f"127.0.0.3: {REPEATS_SHOWN + 2} refused records in the last 3 s (2 not shown)",
    ]
    assert len(lines) == 2 * REPEATS_SHOWN + 2


def test_a_few_repeats_make_no_summary_and_loggers_warnings_are_keyed_by_message() -> None:
    out, clock = io.StringIO(), Clock()
    handler = RepeatSummary(out, clock)
    log = logging.getLogger("palabre.test_repeats")
    log.addHandler(handler)
    log.propagate = False
    try:
        for n in range(REPEATS_SHOWN + 5):
            log.warning("link with %s closed", f"10.0.0.{n}")
    finally:
        log.removeHandler(handler)
    line(handler, "one", ("a", "things"))
    clock.now = REPEAT_WINDOW
    handler.close()
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["link with 10.0.0.0 closed", "link with 10.0.0.1 closed"]
    assert lines[-1] == (
        f"palabre.test_repeats: {REPEATS_SHOWN + 5} warnings like 'link with 10.0.0.0 closed' "
        "in the last 10 s (5 not shown)"  # the first one, never the template's %s
    )
    assert "one" in lines and not any(text.startswith("a: ") for text in lines)
