"""The desk's finished calls become incoming records on the service (H2), exactly once.

Each call has an id (its feed and the feed's call id). A call that ends is written to a
queue file first (0600: numbers are personal data), then sent; a send that fails stays
queued and is tried again later and when the service answers again. A send whose answer
was lost may have reached the service: before sending such a call again, the newest H1
records are checked for it, so a call is never recorded twice. A message taken for the
call is its note: sent with it while queued, or as an edit (H3) once it is recorded.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpdir.calls.events import CallEvent, CallState, log

if TYPE_CHECKING:
    from corpdir.service.calls import CallDesk

NOTE_MAX = 50  # spec 2.10
KEEP_SENT = 500  # sent ids remembered, so a feed that replays an end is not recorded twice
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
    attempts: int = 0  # sends that failed: the next one checks H1 first

    @property
    def sent(self) -> bool:
        return self.record_id is not None


class CallRecorder:
    def __init__(self, desk: CallDesk, path: Path, *, retry_every: float = RETRY_EVERY) -> None:
        self.desk = desk
        self.path = path
        self.retry_every = retry_every
        self.entries: dict[str, Pending] = self._load()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    # -- the queue file ----------------------------------------------------------------------
    def _load(self) -> dict[str, Pending]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return {key: Pending(**value) for key, value in raw.items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError) as exc:
            log.error("call queue %s unreadable (%s): starting a new one beside it", self.path, exc)
            self.path.rename(self.path.with_suffix(".unreadable"))
            return {}

    def _save(self) -> None:
        sent = [k for k, p in self.entries.items() if p.sent]
        for key in sent[:-KEEP_SENT] if len(sent) > KEEP_SENT else []:
            del self.entries[key]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".calls-")  # mkstemp: mode 0600
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({k: asdict(p) for k, p in self.entries.items()}, fh, ensure_ascii=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    @property
    def queued(self) -> list[Pending]:
        return [p for p in self.entries.values() if not p.sent]

    # -- recording -----------------------------------------------------------------------------
    def record(self, event: CallEvent, note: str = "") -> Pending | None:
        """Queue the end of one of the desk's own calls (on disk before anything is sent)."""
        if event.state is not CallState.ENDED or not event.records or event.key in self.entries:
            return None
        called_at = event.rang_at or event.at
        pending = Pending(event.key, event.number, bool(event.answered), int(event.duration or 0),
                          called_at.isoformat(), note[:NOTE_MAX])
        self.entries[event.key] = pending
        self._save()
        return pending

    async def set_note(self, key: str, note: str) -> None:
        """A message taken for the call: its note (H3 when the record is already written)."""
        note = note[:NOTE_MAX]
        async with self._lock:
            pending = self.entries.get(key)
            if pending is None:
                return
            pending.note = note
            self._save()
            if pending.sent:
                await self.desk.set_note(pending.record_id, note)  # type: ignore[arg-type]

    async def flush(self) -> int:
        """Send what is queued; how many were recorded. A failure leaves the rest queued."""
        from corpdir.service.errors import ApiError as ServiceRefused
        from corpdir.service.errors import TransportError as ServiceUnreachable

        done = 0
        async with self._lock:
            for pending in list(self.queued):
                called_at = datetime.fromisoformat(pending.called_at)
                try:
                    record = None
                    if pending.attempts:
                        record = await self.desk.find_incoming(pending.from_num, called_at)
                    if record is None:
                        record = await self.desk.record_incoming(pending.from_num, pending.answered, pending.duration,
                                                                 called_at, pending.note)
                except ServiceUnreachable as exc:
                    pending.attempts += 1
                    self._save()
                    log.info("call %s stays queued: %s", pending.key, exc)
                    break  # the service is away: the rest wait too
                except ServiceRefused as exc:
                    if 400 <= (exc.http_status or 0) < 500 and exc.http_status != 429:
                        log.error("call %s refused by the service, dropped: %s", pending.key, exc)
                        del self.entries[pending.key]
                    else:
                        pending.attempts += 1
                    self._save()
                    continue
                pending.record_id = record.incomingCallHistoryId
                self._save()
                done += 1
        return done

    # -- running ---------------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._retry_loop(), name="call-recorder")

    def kick(self) -> None:
        """Send now (a call just ended, or the service is back)."""
        asyncio.create_task(self.flush())

    async def _retry_loop(self) -> None:
        while True:
            if self.queued:
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
