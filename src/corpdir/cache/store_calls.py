"""The call histories in the cache: what polls of H1/H4 return, read back newest first.

A mixin of :class:`~corpdir.cache.store.CacheStore` (see :mod:`.store_base`): calls are
written by their own rule (only new or changed ids, and a version that says when
anything derived from them must be rebuilt), not by the sync's generations and indexes.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Iterable, Literal

from corpdir.cache.records import Changes
from corpdir.cache.store_base import StoreBase, dump
from corpdir.sqlite import chunks, marks

if TYPE_CHECKING:
    from corpdir.spec.calls import IncomingCall, OutgoingCall

Direction = Literal["incoming", "outgoing"]


class CallHistory(StoreBase):
    """Writes and reads of the ``calls`` table; ``_calls_written`` counts writes that changed it."""

    _calls_written: int

    def put_calls(self, direction: Direction, records: Iterable[IncomingCall | OutgoingCall | dict[str, Any]], *, fetched_at: float | None = None) -> Changes:
        """Calls as a poll of H1/H4 returns them. Only these ids are read back, compared as
        text first (parsed only when the text differs), and only new or changed calls are
        written: a poll with nothing new writes nothing, whatever the history's length, and
        another process's :meth:`calls_version` stays put."""
        now = fetched_at if fetched_at is not None else time.time()
        id_field, at_field = ("incomingCallHistoryId", "calledAt") if direction == "incoming" else ("outgoingCallHistoryId", "callingAt")
        latest = {d[id_field]: d for d in map(dump, records)}  # a repeated id: its last copy
        texts = {rid: json.dumps(d, ensure_ascii=False) for rid, d in latest.items()}
        with self.transaction() as conn:
            before: dict[int, str] = {}
            for chunk in chunks(list(latest)):
                before.update(conn.execute(f"SELECT id, data FROM calls WHERE direction = ? AND id IN ({marks(len(chunk))})",
                                           (direction, *chunk)))
            fresh = [rid for rid, text in texts.items()
                     if rid not in before or (before[rid] != text and json.loads(before[rid]) != latest[rid])]
            conn.executemany("INSERT OR REPLACE INTO calls(direction, id, data, at, fetched_at) VALUES (?, ?, ?, ?, ?)",
                             [(direction, rid, texts[rid], latest[rid].get(at_field), now) for rid in fresh])
            self._calls_written += bool(fresh)
        added = sum(1 for rid in fresh if rid not in before)
        return Changes(added, len(fresh) - added)

    def has_calls(self, direction: Direction) -> bool:
        return self._one("SELECT 1 FROM calls WHERE direction = ? LIMIT 1", (direction,)) is not None

    def calls_version(self) -> tuple[int, int]:
        """Moves whenever the call histories may have changed: a write of calls through this
        store, or a commit by another process. What is derived from the calls (the desk
        phone's calls by caller) is rebuilt only when it moves."""
        with self._lock:
            return self._calls_written, self._conn.execute("PRAGMA data_version").fetchone()[0]

    def calls(self, direction: Direction, *, answered: bool | None = None, newest_first: bool = True, limit: int = 500) -> list[IncomingCall | OutgoingCall]:
        from corpdir.spec.calls import IncomingCall, OutgoingCall
        model = IncomingCall if direction == "incoming" else OutgoingCall
        rows = self._rows(
            f"SELECT data FROM calls WHERE direction = ? ORDER BY at {'DESC' if newest_first else 'ASC'}, id LIMIT ?",
            (direction, limit))
        records = [model.model_validate_json(r[0]) for r in rows]
        return [r for r in records if answered is None or r.answered == answered]
