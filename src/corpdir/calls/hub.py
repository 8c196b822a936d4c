"""Runs the configured feeds side by side: each one reconnects with backoff when it
drops, its state is kept for the status bar, and every event it reads passes through its
:class:`~corpdir.calls.events.CallTracker` before it reaches the listener (the TUI).

A feed is any object with a ``name``, a ``records`` flag and ``async run(link)``: it
connects, calls ``link.connected()``, then ``link.emit(event)`` for each event or
``link.skip(raw, reason)`` for one it could not read, and returns or raises when its
connection ends. Nothing a feed does can stop the others or the app.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace
from typing import Any, Awaitable, Callable, Protocol, runtime_checkable

from corpdir.calls.events import CallEvent, CallTracker, log

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0


class FeedRefused(ConnectionError):
    """The feed must not connect now (another corpdir holds the soft phone's one control
    connection): said as it is on the status bar (short: it shares a line), the whole
    story in the log, and tried again only after the longest wait, never in a loop that
    takes the connection from the other."""

    def __init__(self, status: str, detail: str) -> None:
        super().__init__(status)
        self.detail = detail


class Feed(Protocol):
    name: str
    records: bool

    async def run(self, link: FeedLink) -> None: ...


@runtime_checkable
class Answering(Protocol):
    """A feed that can pick its calls up on the phone (baresip's accept)."""

    async def answer(self, call_id: str) -> None: ...


@runtime_checkable
class HangingUp(Protocol):
    """A feed that can end its calls on the phone or PBX (baresip's hangup, AMI's Hangup)."""

    async def hang_up(self, call_id: str) -> None: ...


@dataclass(frozen=True)
class FeedStatus:
    name: str
    state: str = "connecting"  # connecting, connected, reconnecting, refused
    error: str = ""
    retry_in: float = 0.0
    skipped: int = 0  # malformed events read and skipped

    def describe(self) -> str:
        if self.state == "refused":
            return f"{self.name}: {self.error}"
        if self.state == "reconnecting":
            return f"{self.name}: reconnecting in {self.retry_in:.0f} s ({self.error})"
        return f"{self.name}: {self.state}"


def reason(exc: Exception) -> str:
    """A few words for the status bar: 'connection refused', not "[Errno 111] Connect call
    failed ('127.0.0.1', 4444)"."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return "no answer"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or exc.__class__.__name__


def backoff(attempt: int, first: float = BACKOFF_FIRST, most: float = BACKOFF_MAX) -> float:
    """Doubling delays with jitter (0.5, 1, 2 ... 30 s): a PBX restarting is not hammered."""
    return min(most, first * 2 ** attempt) * random.uniform(0.8, 1.0)


class FeedLink:
    """What a running feed reports to the hub."""

    def __init__(self, hub: CallHub, feed: Feed) -> None:
        self.hub = hub
        self.feed = feed
        self.tracker = hub.trackers[feed.name]  # kept across reconnects: a call open before a drop ends right
        self.was_connected = False

    def connected(self) -> None:
        self.was_connected = True
        self.hub._set(self.feed.name, state="connected", error="", retry_in=0.0)

    def emit(self, event: CallEvent) -> None:
        event = replace(event, feed=self.feed.name, records=self.feed.records)
        self.hub._deliver(self.tracker(event))

    def skip(self, raw: Any, reason: str) -> None:
        log.warning("call feed %s: skipped a malformed event (%s): %.200r", self.feed.name, reason, raw)
        status = self.hub.status[self.feed.name]
        self.hub._set(self.feed.name, skipped=status.skipped + 1)


Listener = Callable[[CallEvent], Any]


class CallHub:
    def __init__(self, feeds: list[Feed], on_event: Listener, on_status: Callable[[], Any] | None = None, *,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.feeds = feeds
        self.on_event = on_event
        self.on_status = on_status
        self.sleep = sleep
        self.status: dict[str, FeedStatus] = {f.name: FeedStatus(f.name) for f in feeds}
        self.trackers: dict[str, CallTracker] = {f.name: CallTracker() for f in feeds}
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._keep(feed), name=f"call-feed-{feed.name}") for feed in self.feeds]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        for feed in self.feeds:
            close = getattr(feed, "close", None)
            if close is not None:
                await close()

    def summary(self) -> str:
        """One short phrase for the status bar: only feeds that are not connected are named."""
        down = [s for s in self.status.values() if s.state != "connected"]
        if not self.status:
            return ""
        if not down:
            return "phone: " + ", ".join(self.status)
        return "phone: " + "; ".join(s.describe() for s in down)

    async def _keep(self, feed: Feed) -> None:
        attempt = 0
        while True:
            link = FeedLink(self, feed)
            try:
                await feed.run(link)
                error = "connection closed"
            except asyncio.CancelledError:
                raise
            except FeedRefused as exc:
                log.warning("call feed %s refused: %s", feed.name, exc.detail)
                self._set(feed.name, state="refused", error=str(exc), retry_in=BACKOFF_MAX)
                await self.sleep(BACKOFF_MAX)
                continue
            except Exception as exc:  # noqa: BLE001 - any failure of a feed is a reconnect, never a crash
                error = reason(exc)
                log.info("call feed %s dropped: %s", feed.name, error)
            attempt = 0 if link.was_connected else attempt + 1
            delay = backoff(attempt)
            self._set(feed.name, state="reconnecting", error=error, retry_in=delay)
            await self.sleep(delay)
            self._set(feed.name, state="connecting", retry_in=0.0)

    def _set(self, name: str, **changes: Any) -> None:
        self.status[name] = replace(self.status[name], **changes)
        if self.on_status is not None:
            self.on_status()

    def _deliver(self, event: CallEvent) -> None:
        try:
            self.on_event(event)
        except Exception:  # noqa: BLE001 - a listener's bug must not take the feed down
            log.exception("call event listener failed on %s", event)
