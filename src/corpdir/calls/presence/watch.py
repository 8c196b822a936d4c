"""The busy lamps a front end shows: one source run and reconnected, and the watched set.

The front end says what it shows (:meth:`Presence.watch`: the favourites and the people
on screen); only those extensions, at most ``max_watched``, have a lamp and are told
about (``on_change``), so a tenant of 10,000 extensions is never followed whole. While
the source is down every lamp is unknown, and the source is retried with backoff."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Callable, Iterable

from corpdir.calls.dialers import dial_string
from corpdir.calls.presence.lamps import Lamp, LampBoard

if TYPE_CHECKING:
    from corpdir.config.presence import PresenceConfig

log = logging.getLogger("corpdir.calls.presence")
RETRY_FIRST, RETRY_MAX = 0.5, 15.0


def extension_key(extension: str | None) -> str:
    """The digits a lamp is kept under: '２０１' and '201' are one extension."""
    return dial_string(extension or "")


def build_source(config: PresenceConfig) -> Any:
    if config.kind == "kamailio":
        from corpdir.calls.presence.kamailio import KamailioLamps

        return KamailioLamps(config)
    from corpdir.calls.presence.ami import AmiLamps

    return AmiLamps(config)


class Presence:
    def __init__(self, config: PresenceConfig, on_change: Callable[[frozenset[str]], None], *,
                 source: Any = None) -> None:
        self.config = config
        self.source = source or build_source(config)
        self.board = LampBoard()
        self.on_change = on_change
        self.watched: frozenset[str] = frozenset()
        self.state = "connecting"  # or "connected", "down: <why>"
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="busy-lamps")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def watch(self, shown: Iterable[str | None], favourites: Iterable[str | None] = ()) -> None:
        """Lamps for the favourites first, then the extensions shown, ``max_watched`` in all.
        The newly watched are told at once (their lamp as the board has it)."""
        ordered = dict.fromkeys(k for k in map(extension_key, (*favourites, *shown)) if k)
        watched = frozenset(list(ordered)[:self.config.max_watched])
        added, self.watched = watched - self.watched, watched
        if added:
            self.on_change(frozenset(added))

    def lamp(self, extension: str | None) -> Lamp:
        key = extension_key(extension)
        return self.board.lamp(key) if key in self.watched else Lamp.UNKNOWN

    def _changed(self, touched: set[str]) -> None:
        told = self.watched & touched if touched else self.watched
        if not touched:
            self.state = "connected"
        if told:
            self.on_change(frozenset(told))

    async def _run(self) -> None:
        wait = RETRY_FIRST
        while True:
            try:
                await self.source.run(self.board, self._changed)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - OSError, a refused login, a garbled answer: all retried
                self.state = f"down: {exc}"
                log.info("busy lamps from %s: %s", self.source.name, exc)
            if self.board.online:
                wait = RETRY_FIRST  # it had worked: try again soon
            self.board.reset(online=False)
            if self.watched:
                self.on_change(self.watched)  # every lamp unknown now, never a stale "free"
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX)
