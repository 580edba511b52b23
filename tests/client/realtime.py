"""The harness's router on the real clock: every table gets ``time.monotonic()``, and bots
think inline on this thread, so a bot's thinking costs its clock what it costs a person's
(the clock's figures are real milliseconds).  For the few tests about time itself."""

from __future__ import annotations

import time

from tests.client.harness import Router


class RealTimeRouter(Router):
    """``Router`` whose ``now`` follows the real clock: it sleeps until the next delivery or
    deadline instead of jumping to it."""

    def start(self) -> None:
        self._t0 = time.monotonic()
        super().start()

    def step(self, until: float | None = None) -> bool:
        elapsed = time.monotonic() - self._t0
        self.now = max(self.now, elapsed)
        deadlines = [
            deadline
            for name, table in self.tables.items()
            if name not in self.down
            and (deadline := table.next_deadline(presence=self.presence)) is not None
        ]
        upcoming = min([*deadlines, *(entry[0] for entry in self._queue[:1])], default=None)
        if upcoming is None:
            return False
        if until is not None and upcoming > until:
            return False
        if upcoming > elapsed:
            time.sleep(upcoming - elapsed)
            self.now = max(self.now, time.monotonic() - self._t0)
        return super().step(until)
