"""A test-only delaying transport: what a peer writes reaches the wire ``delay ± jitter`` later.

This kernel has no ``netem``, so latency is simulated inside the program.  ``DelayedStream``
wraps the trio stream of a link: ``send_all`` returns at once (like a write into the
kernel's buffer) and a pump task writes each chunk to the real stream when its time comes.
Invariants:

* **Order.**  A chunk is never due before the one written ahead of it (its due time is at
  least the previous one's), so jitter delays but never reorders bytes, as on a TCP link.
* **Nothing is lost by closing.**  ``send_eof`` and ``aclose`` queue behind the data: the
  pump writes what is pending, then half-closes or closes the real stream, as the kernel
  does with a socket's buffer after ``close``.
* **Errors surface on the next write**, as ``trio.BrokenResourceError`` (the driver's usual
  "the connection broke").
* Reading is not delayed: each peer delays what it sends, so with every peer delayed by
  ``d`` every one-way hop takes ``d`` ("latency per peer").

``install(delay, jitter, seed)`` makes every link of this process delayed (it wraps the
stream ``net.driver.Link`` is given).  Only ``tests.lan.lan_peer`` calls it, when the
environment variable ``PALABRE_TEST_DELAY=MS[:JITTER_MS]`` is set; palabre never does.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import trio

from net import driver

__all__ = ["DelayedStream", "install", "parse_delay"]

_EOF = object()
_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError, OSError)


class DelayedStream(trio.abc.HalfCloseableStream):
    def __init__(self, inner: trio.abc.Stream, delay: float, jitter: float, rng: random.Random):
        self.inner = inner
        self.delay, self.jitter, self.rng = delay, jitter, rng
        self._queue: deque[tuple[float, Any]] = deque()
        self._last_due = -float("inf")
        self._more = trio.Event()
        self._pumping = False
        self._closing = False
        self._error: BaseException | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)  # ``socket`` and the like

    # --- writing -------------------------------------------------------------------------
    def _queue_item(self, item: Any) -> None:
        due = trio.current_time() + self.delay + self.rng.uniform(-self.jitter, self.jitter)
        self._last_due = max(self._last_due, due)
        self._queue.append((self._last_due, item))
        self._more.set()
        if not self._pumping and self._error is None:
            self._pumping = True
            trio.lowlevel.spawn_system_task(self._pump, name="delayed stream pump")

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self._error is not None:
            raise trio.BrokenResourceError("the delayed stream broke") from self._error
        if self._closing:
            raise trio.ClosedResourceError("the delayed stream is closed")
        if data:
            self._queue_item(bytes(data))
        await trio.lowlevel.checkpoint()

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def send_eof(self) -> None:
        if not self._closing:
            self._queue_item(_EOF)
        await trio.lowlevel.checkpoint()

    async def _pump(self) -> None:
        try:
            while self._queue or not self._closing:
                if not self._queue:
                    self._more = trio.Event()
                    await self._more.wait()
                    continue
                due, item = self._queue[0]
                await trio.sleep_until(due)
                self._queue.popleft()
                if item is _EOF:
                    if isinstance(self.inner, trio.abc.HalfCloseableStream):
                        await self.inner.send_eof()
                else:
                    await self.inner.send_all(item)
        except _ERRORS as error:
            self._error = error
            self._queue.clear()
        self._pumping = False
        if self._closing:
            await trio.aclose_forcefully(self.inner)

    # --- reading and closing -------------------------------------------------------------
    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        if not self._closing:
            self._closing = True
            self._more.set()
            if not self._pumping:  # nothing pending, nobody else will close it
                await trio.aclose_forcefully(self.inner)
                return
        await trio.lowlevel.checkpoint()


def parse_delay(text: str) -> tuple[float, float]:
    """``"50"`` or ``"50:10"`` (milliseconds) -> (delay, jitter) in seconds."""
    delay, _, jitter = text.partition(":")
    seconds = int(delay) / 1000, int(jitter or "0") / 1000
    if not 0 <= seconds[1] <= seconds[0]:
        raise ValueError(f"PALABRE_TEST_DELAY={text!r}: want MS[:JITTER_MS], jitter <= delay")
    return seconds


def install(delay: float, jitter: float, seed: int = 0) -> None:
    """Delay every link this process opens or accepts from now on."""
    rng = random.Random(seed)
    original = driver.Link.__init__

    def init(self: driver.Link, stream: trio.abc.Stream, *args: Any, **kwargs: Any) -> None:
        original(self, DelayedStream(stream, delay, jitter, rng), *args, **kwargs)

    driver.Link.__init__ = init  # type: ignore[method-assign]
