"""The desk's finished calls become incoming records on the service (H2), exactly once.

Each call has an id (its feed and the feed's call id). A call that ends is written to a
queue file first (0600: numbers are personal data), then sent; a send that fails stays
queued and is tried again later and when the service answers again.

Exactly once, whatever kills the process: before each H2 request the call is marked
``maybe_sent`` and that mark is on disk (fsync'd file, fsync'd folder) before a byte
leaves. A call found so marked (after a lost answer, a SIGKILL, a closed terminal) is
looked up in the newest H1 records first and taken from there if the service has it, so
it is never recorded twice. A message taken for the call is its note: sent with it while
queued, or as an edit (H3) once it is recorded; an H3 waits in the same file
(``note_pending``) until the service has taken it, so an outage does not lose it.

The file also keeps what the desk should see later (``corpdir doctor``): the last records
the service refused, and calls whose outcome the feed could not tell (it joined after
they started, or they ended while no corpdir listened), which are not sent: a guessed
"missed, 0 s" would mislead a call-back list. To know the second kind, the calls that are
ringing or up are in the file too (``open``) until they end: one the feed does not find
again when it reconnects ended while nobody listened.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from corpdir.calls.events import CallEvent, CallState, log, now
from corpdir.paths import write_durably

if TYPE_CHECKING:
    from corpdir.service.calls import CallDesk

NOTE_MAX = 50  # spec 2.10
KEEP_SENT = 500  # sent ids remembered, so a feed that replays an end is not recorded twice
KEEP_NOTICES = 20  # refused records and calls of unknown outcome kept for `corpdir doctor`
RETRY_EVERY = 15.0


@dataclass
class Pending:
    key: str
    from_num: str
    answered: bool
    duration: int
    called_at: str  # ISO 8601
    note: str = ""
    record_id: int | None = None  # set once the service has it
    attempts: int = 0  # H2 requests started
    maybe_sent: bool = False  # an H2 may have reached the service: look in H1 before sending again
    note_pending: bool = False  # the note is not yet on the service's record (H3 to send)

    @property
    def sent(self) -> bool:
        return self.record_id is not None


@dataclass(frozen=True)
class Notice:
    """A call the desk should know about that the service does not hold: refused by it
    (``reason`` says why), or ended with an outcome nobody saw (``reason`` 'unknown outcome')."""

    key: str
    from_num: str
    called_at: str
    reason: str
    at: str  # when corpdir gave up on it


@dataclass(frozen=True)
class Open:
    """A call of the desk's that rang (and maybe was answered) and has not ended yet."""

    from_num: str
    rang_at: str
    answered_at: str | None = None


class QueueFile(NamedTuple):
    calls: dict[str, Pending]
    refused: list[Notice]
    unknown: list[Notice]
    open: dict[str, Open]


def _pending(raw: dict[str, Any]) -> Pending:
    known = {f.name for f in fields(Pending)}
    return Pending(**{k: v for k, v in raw.items() if k in known})


def read_queue(path: Path) -> QueueFile:
    """The queue file. Raises OSError/ValueError."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    if "calls" not in raw:  # the first format: the calls only
        raw = {"calls": raw}
    return QueueFile({key: _pending(value) for key, value in raw["calls"].items()},
                     [Notice(**n) for n in raw.get("refused", [])], [Notice(**n) for n in raw.get("unknown", [])],
                     {key: Open(**value) for key, value in raw.get("open", {}).items()})


class CallRecorder:
    def __init__(self, desk: CallDesk, path: Path, *, retry_every: float = RETRY_EVERY) -> None:
        self.desk = desk
        self.path = path
        self.retry_every = retry_every
        self.refused: list[Notice] = []
        self.unknown: list[Notice] = []
        self.open: dict[str, Open] = {}
        self.alive: set[str] = set()  # calls heard of on their feed's current connection
        self.entries: dict[str, Pending] = self._load()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    # -- the queue file ----------------------------------------------------------------------
    def _load(self) -> dict[str, Pending]:
        try:
            entries, self.refused, self.unknown, self.open = read_queue(self.path)
            return entries
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.error("call queue %s unreadable (%s): starting a new one beside it", self.path, exc)
            self.path.rename(self.path.with_suffix(".unreadable"))
            return {}

    def _save(self) -> None:
        sent = [k for k, p in self.entries.items() if p.sent and not p.note_pending]
        for key in sent[:-KEEP_SENT] if len(sent) > KEEP_SENT else []:
            del self.entries[key]
        self.refused, self.unknown = self.refused[-KEEP_NOTICES:], self.unknown[-KEEP_NOTICES:]
        write_durably(self.path, json.dumps({"calls": {k: asdict(p) for k, p in self.entries.items()},
                                             "refused": [asdict(n) for n in self.refused],
                                             "unknown": [asdict(n) for n in self.unknown],
                                             "open": {k: asdict(o) for k, o in self.open.items()}}, ensure_ascii=False))

    @property
    def queued(self) -> list[Pending]:
        return [p for p in self.entries.values() if not p.sent]

    @property
    def notes_queued(self) -> list[Pending]:
        return [p for p in self.entries.values() if p.sent and p.note_pending]

    # -- calls not ended yet ---------------------------------------------------------------------
    def follow(self, event: CallEvent) -> None:
        """A call of the desk's own rang or was answered: on disk until it ends, so the next
        start of a desk that died mid-call knows of it (:meth:`ended_while_away`)."""
        if not event.records:
            return
        self.alive.add(event.key)
        if event.state is CallState.ENDED:
            return
        known = self.open.get(event.key)
        answered_at = known.answered_at if known else None
        if event.state is CallState.ANSWERED and answered_at is None:
            answered_at = event.at.isoformat()
        following = Open(event.number or (known.from_num if known else ""),
                         known.rang_at if known else event.at.isoformat(), answered_at)
        if following != known:
            self.open[event.key] = following
            self._save()

    def lost_touch(self, feed: str) -> None:
        """``feed`` dropped: what it says after reconnecting decides which calls are still up."""
        self.alive = {key for key in self.alive if not key.startswith(f"{feed}:")}

    def ended_while_away(self, feed: str, *, tells_calls_up: bool) -> list[tuple[str, Open]]:
        """``feed`` has (re)connected: its calls still open from an earlier run that it did
        not mention again are lost to the record. A feed that tells the calls up at connect
        (baresip's listcalls) says they ended while no corpdir listened; for another, their
        end will never be recognised (a PBX's hang-up of a call this run never saw rung). The
        end, and so the duration, is unknown: kept as notices, not recorded. Returns them
        (key, what was known), so a card still showing one can say it ended."""
        gone = [key for key in self.open if key.startswith(f"{feed}:") and key not in self.alive]
        lost = [(key, self.open[key]) for key in gone]
        why = "ended while no corpdir listened" if tells_calls_up else "corpdir restarted during it, its end unseen"
        for key in gone:
            was = self.open.pop(key)
            seen = f"answered {was.answered_at}" if was.answered_at else "ringing"
            self.unknown.append(Notice(key, was.from_num, was.rang_at, f"{why} (last {seen})", now().isoformat()))
            log.warning("call %s from %s: %s (last %s): not recorded", key, was.from_num or "a withheld number",
                        why, seen)
        if gone:
            self._save()
        return lost

    # -- recording -----------------------------------------------------------------------------
    def record(self, event: CallEvent, note: str = "") -> Pending | None:
        """Queue the end of one of the desk's own calls (on disk before anything is sent).
        A call whose outcome the feed could not tell (``answered`` None) is kept as a notice
        for the desk instead."""
        if event.state is not CallState.ENDED or not event.records or event.key in self.entries:
            return None
        self.open.pop(event.key, None)
        called_at = event.rang_at or event.at
        if event.answered is None:
            if all(n.key != event.key for n in self.unknown):
                self.unknown.append(Notice(event.key, event.number, called_at.isoformat(), "unknown outcome",
                                           now().isoformat()))
                self._save()
                log.warning("call %s from %s ended with an unknown outcome (the feed joined it late): not recorded",
                            event.key, event.number or "a withheld number")
            return None
        pending = Pending(event.key, event.number, bool(event.answered), int(event.duration or 0),
                          called_at.isoformat(), note[:NOTE_MAX])
        self.entries[event.key] = pending
        self._save()
        return pending

    async def set_note(self, key: str, note: str) -> None:
        """A message taken for the call: its note. Once the call is recorded, the note is
        queued as an H3 (on disk first) and sent now or, if the service is away, later."""
        async with self._lock:
            pending = self.entries.get(key)
            if pending is None:
                return
            pending.note = note[:NOTE_MAX]
            pending.note_pending = pending.sent
            self._save()
            if pending.sent:
                await self._send_notes([pending])

    async def flush(self) -> int:
        """Send what is queued (records, then notes); how many calls were recorded. A
        failure to reach the service leaves the rest queued."""
        async with self._lock:
            done, reachable = await self._send_records()
            if reachable:
                await self._send_notes(self.notes_queued)
        return done

    async def _send_records(self) -> tuple[int, bool]:
        from corpdir.service.errors import ApiError as ServiceRefused
        from corpdir.service.errors import TransportError as ServiceUnreachable

        done = 0
        for pending in list(self.queued):
            called_at = datetime.fromisoformat(pending.called_at)
            try:
                record = await self.desk.find_incoming(pending.from_num, called_at) if pending.maybe_sent else None
                if record is None:
                    pending.maybe_sent, pending.attempts = True, pending.attempts + 1
                    self._save()  # durable before the request: a death from here on is looked up first
                    record = await self.desk.record_incoming(pending.from_num, pending.answered, pending.duration,
                                                             called_at, pending.note)
            except ServiceUnreachable as exc:
                log.info("call %s stays queued: %s", pending.key, exc)
                return done, False  # the service is away: the rest wait too
            except ServiceRefused as exc:
                if 400 <= (exc.http_status or 0) < 500 and exc.http_status != 429:
                    self._refuse(pending, f"HTTP {exc.http_status}: {exc}")
                continue
            pending.record_id, pending.maybe_sent = record.incomingCallHistoryId, False
            self._save()
            done += 1
        return done, True

    async def _send_notes(self, waiting: list[Pending]) -> None:
        """H3 for each recorded call whose note the service does not have yet. Setting a
        note twice is harmless, so a lost answer is simply sent again."""
        from corpdir.service.errors import ApiError as ServiceRefused
        from corpdir.service.errors import TransportError as ServiceUnreachable

        for pending in waiting:
            try:
                await self.desk.set_note(pending.record_id, pending.note)  # type: ignore[arg-type]
            except ServiceUnreachable as exc:
                log.info("the message for call %s stays queued: %s", pending.key, exc)
                return
            except ServiceRefused as exc:
                if not (400 <= (exc.http_status or 0) < 500 and exc.http_status != 429):
                    continue
                log.error("the message for call %s was refused by the service, dropped: HTTP %s", pending.key,
                          exc.http_status)
            pending.note_pending = False
            self._save()

    def _refuse(self, pending: Pending, reason: str) -> None:
        """A record the service refused would be refused again: dropped from the queue, kept
        as a notice (no note: the message text stays where the service would have kept it)."""
        log.error("call %s refused by the service, dropped: %s", pending.key, reason)
        del self.entries[pending.key]
        self.refused.append(Notice(pending.key, pending.from_num, pending.called_at, reason, now().isoformat()))
        self._save()

    # -- running ---------------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._retry_loop(), name="call-recorder")

    def kick(self) -> None:
        """Send now (a call just ended, or the service is back)."""
        asyncio.create_task(self.flush())

    async def _retry_loop(self) -> None:
        while True:
            if self.queued or self.notes_queued:
                try:
                    await self.flush()
                except Exception:  # noqa: BLE001 - the loop outlives any one failure
                    log.exception("call queue flush failed")
            await asyncio.sleep(self.retry_every)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


def queue_path(profile_cache: Path, data: Path) -> Path:
    """One queue per profile (service and key), beside the other data."""
    return data / "calls" / f"queue-{profile_cache.stem}.json"
