"""Watching busy lamps in tests and benches: every change the presence tells, and a wait
for the lamps a test expects (each wait ends when they hold, the test's own timeout aside)."""

from __future__ import annotations

import asyncio
import time
from typing import Callable

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

    async def until(self, expected: dict[str, Lamp]) -> float:
        """When (perf_counter) the lamps first all showed ``expected``."""
        await self.holds(lambda: self.lamps(*expected) == tuple(expected.values()))
        return time.perf_counter()

    async def holds(self, predicate: Callable[[], bool]) -> None:
        """Until ``predicate()`` holds, checked after each change told."""
        while not predicate():
            self._moved.clear()
            await self._moved.wait()
