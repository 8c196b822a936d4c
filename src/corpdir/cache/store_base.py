"""What every part of the cache store stands on: its connection, its lock and the way
it reads and writes through them.

:class:`~corpdir.cache.store.CacheStore` is one object (callers use ``store.user(...)``,
``store.put_calls(...)`` without knowing which part holds what), put together from
mixins, one per kind of record: the directory's reads (:mod:`.store_reads`), the
folder lists (:mod:`.store_folders`) and the call histories (:mod:`.store_calls`);
the synced writes and the sync's bookkeeping stay in :mod:`.store`. Each mixin is a
:class:`StoreBase`, so it reads and writes the same way; none adds a call layer (a
method is found on the one class as before).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Iterator, Sequence, TypeVar

from corpdir.cache import blobs
from corpdir.sqlite import transaction

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")


@dataclass(frozen=True)
class Cached(Generic[M]):
    """A record and the time (epoch seconds) it was fetched from the service."""

    record: M
    fetched_at: float

    def age(self, now: float | None = None) -> float:
        return (now if now is not None else time.time()) - self.fetched_at


def dump(record: BaseModel | dict[str, Any]) -> dict[str, Any]:
    """A record as the JSON the cache stores (a model without its empty fields)."""
    if isinstance(record, dict):
        return record
    return record.model_dump(mode="json", exclude_none=True)


class StoreBase:
    """The connection (opened by :class:`~corpdir.cache.store.CacheStore`) and its lock."""

    path: str
    region: str
    codec: blobs.Codec
    _conn: sqlite3.Connection
    _lock: threading.RLock

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All-or-nothing: a killed process leaves the cache as it was before the block."""
        try:
            with transaction(self._conn, self._lock) as conn:
                yield conn
        except BaseException:
            self.codec.forget()  # a compression dictionary made in a rolled-back transaction is gone with it
            raise

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            cur = self._conn.execute(sql, params)
            return cur.fetchall()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self._rows(sql, params)
        return rows[0] if rows else None
