"""Watching busy lamps in tests and benches: every change the presence tells, and a wait
for the lamps a test expects (each wait ends when they hold, the test's own timeout aside)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from corpdir.calls.feeds.baresip import send_command
from corpdir.calls.presence.lamps import Lamp
from corpdir.calls.presence.watch import Presence


class LampWatcher:
    """``Presence(config, watcher.changed)``, then ``watcher.presence = ...``."""

    def __init__(self) -> None:
        self.presence: Presence | None = None
        self.seen: list[tuple[float, dict[str, Lamp]]] = []  # (monotonic time, lamps told then)
        self._moved = asyncio.Event()

    def changed(self, extensions: frozenset[str]) -> None:
        assert self.presence is not None
        self.seen.append((time.perf_counter(), {e: self.presence.lamp(e) for e in extensions}))
        self._moved.set()

    def lamps(self, *extensions: str) -> tuple[Lamp, ...]:
        assert self.presence is not None
        return tuple(self.presence.lamp(e) for e in extensions)

    async def until(self, expected: dict[str, Lamp], give_up: float = 60.0) -> float:
        """When (perf_counter) the lamps first all showed ``expected``."""
        await self.holds(lambda: self.lamps(*expected) == tuple(expected.values()), give_up)
        return time.perf_counter()

    async def answer(self, phone: Any, expected: dict[str, Lamp], tries: int = 3) -> None:
        """``accept`` on a ringing baresip until the lamps show ``expected``. Debian's
        baresip 1.0 now and then answers "Answering incoming call" to an accept and never
        sends its 200 OK (its log stops at the ringing; 3 of 48 calls with four tests at
        once on two cores): the call stays ringing, and a second accept answers it. The
        lamps are what is tested here, not that baresip bug."""
        for attempt in range(tries):
            await send_command("127.0.0.1", phone.ctrl_port, "accept", "")
            try:
                await self.until(expected, give_up=10.0 if attempt < tries - 1 else 60.0)
                return
            except AssertionError:
                if attempt == tries - 1:
                    raise

    async def holds(self, predicate: Callable[[], bool], give_up: float = 60.0) -> None:
        """Until ``predicate()`` holds, checked after each change told. A call that broke on
        the SIP side never brings the lamps there: after ``give_up`` seconds without them the
        test fails, naming what the lamps showed, instead of waiting for ever."""
        try:
            async with asyncio.timeout(give_up):
                while not predicate():
                    self._moved.clear()
                    await self._moved.wait()
        except TimeoutError:
            raise AssertionError(f"the lamps never held; they went {[lamps for _, lamps in self.seen]}") from None
