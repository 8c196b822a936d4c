"""The local SQLite mirror of one profile: records as the service returned them.

The cache is a read model: writes go to the API, and the record the API returns is put
here. Each record remembers when it was fetched, so the UI can say how stale a view is.
The store is synchronous and thread-safe (one connection, one lock); the UI calls it
through :class:`corpdir.cache.aio.AsyncCache` so SQLite never runs on the event loop,
while `corpdir lookup` calls it directly to stay fast.

This module keeps the store's opening, the synced writes (users, divisions, contacts and
the indexes and sync checkpoints that must change with them) and the deletes; the reads
and the other kinds of record are its mixins (:mod:`.store_base` says how it is put
together).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Literal, Sequence

from corpdir.cache import blobs, indexing, numbers, reading
from corpdir.cache.records import Changes, RecordWriter
from corpdir.cache.schema import LEFTOVERS, migrate
from corpdir.cache.store_base import dump
from corpdir.cache.store_calls import CallHistory
from corpdir.cache.store_folders import FolderLists
from corpdir.cache.store_reads import DirectoryReads
from corpdir.phone import DEFAULT_REGION, match_key
from corpdir.sqlite import chunks, marks

if TYPE_CHECKING:  # imported where first used: pydantic comes after the first screen (docs/performance.md)
    from pydantic import BaseModel

    from corpdir.spec.contact import Contact
    from corpdir.spec.division import Division
    from corpdir.spec.user import User
    from corpdir.spec.profile import Profile

Synced = Literal["users", "divisions", "contacts"]
_KINDS = {"users": indexing.USER, "contacts": indexing.CONTACT}


@dataclass(frozen=True)
class SyncCheckpoint:
    """Where a sync pass of one resource stands: saved with each page it stores."""

    resource: str
    generation: int
    next_page: int = 0
    cursor: str | None = None
    started_at: float | None = None
    completed_at: float | None = None
    page_size: int = 100  # a resumed pass must keep its page size, or page numbers mean other rows

    def save(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO sync_state(resource, generation, next_page, cursor, started_at, completed_at, page_size)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.resource, self.generation, self.next_page, self.cursor, self.started_at, self.completed_at, self.page_size))


def _set_aside(path: str, why: Exception, inode: int | None) -> str | None:
    """Move a damaged cache file (and its WAL) to ``<path>.damaged``, still 0600, for
    whoever wants to look at it; the cache is a copy of the service's data, rebuilt by the
    next sync. A cache that is not a database (a disk filled mid-write, a file copied over
    it) made every start end in a traceback. Only the file found damaged (``inode``) is
    moved: another process that opened it at the same time may have set it aside already
    and made the new one now at ``path`` (None is returned then)."""
    import logging

    try:
        if inode is not None and os.stat(path).st_ino != inode:
            return None
    except FileNotFoundError:
        return None
    target = f"{path}.damaged"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.replace(path + suffix, target + suffix)
        elif os.path.exists(target + suffix):
            os.remove(target + suffix)  # an older incident's journal: never applied to this file
    logging.getLogger("corpdir.cache").warning("corpdir: the cache %s could not be read (%s): set aside as %s; "
                                               "a sync fills a new one", path, why, target)
    return target


class CacheStore(DirectoryReads, FolderLists, CallHistory):
    """One profile's cache database (a file with mode 0600, or ``:memory:``)."""

    def __init__(self, path: str | Path = ":memory:", *, region: str = DEFAULT_REGION) -> None:
        self.path = str(path)
        self.region = region
        self.set_aside: str | None = None
        """Where a damaged cache file found at ``path`` was moved (this one is new)."""
        try:
            self._connect()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) or self.path == ":memory:":
                raise  # locked, unreadable, read-only: not the file's content, nothing to set aside
            if getattr(self, "_conn", None) is not None:
                self._conn.close()
            self.set_aside = _set_aside(self.path, exc, self._inode)
            self._connect()
        numbers.remember_region_rules(self._conn, region)
        self.codec = blobs.Codec(self._conn)
        self._writer = RecordWriter(self.codec, lambda number: match_key(number, region))
        self._calls_written = 0
        self._import_leftovers()
        self._read_divisions()

    def _connect(self) -> None:
        self._inode: int | None = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
            self._inode = os.fstat(fd).st_ino
            os.close(fd)
            os.chmod(self.path, 0o600)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        # the trigram index is updated page by page during a sync: a larger page cache
        # keeps its hot b-tree pages in memory (measured ~1.5x faster bulk writes)
        self._conn.execute("PRAGMA cache_size=-32768")
        self._lock = threading.RLock()
        migrate(self._conn)

    # -- meta -------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def synced_at(self, resource: str) -> float | None:
        """When ``resource`` (users, divisions, contacts, ...) last finished a sync."""
        value = self.get_meta(f"synced_at:{resource}")
        return float(value) if value else None

    def mark_synced(self, resource: str, when: float | None = None) -> None:
        self.set_meta(f"synced_at:{resource}", repr(when if when is not None else time.time()))

    def compact(self) -> None:
        """Rewrite the file without the slack a first sync leaves, and give the space back.

        A first sync fills the term and phone indexes in the service's order, not theirs:
        their b-tree pages split and stay part-filled, and the trigram index merges its
        segments, freeing pages. That slack is ~8-12 % of the file (bench/sync_bench.py:
        1,338 -> 1,247 B/record at 10k, 1,397 at 100k), more than the 1.3 KB a record the
        cache is meant to take, and later incremental syncs change only a few records, so
        it would stay. VACUUM rebuilds it packed, once, at a cost measured in
        docs/performance.md; the checkpoint then truncates the write-ahead log that VACUUM
        filled with the whole file. It runs with SQLite's default page cache, not the sync's
        32 MiB: VACUUM fills whatever cache it has with the copy it writes (10k: +54 MiB of
        RSS with 32 MiB, +4 MiB with the default, in the same 0.5 s)."""
        if self.path == ":memory:":
            return
        with self._lock:
            pages = self._conn.execute("PRAGMA cache_size").fetchone()[0]
            self._conn.execute("PRAGMA cache_size=-2000")
            try:
                self._conn.execute("VACUUM")
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self._conn.execute(f"PRAGMA cache_size={int(pages)}")

    def is_empty(self) -> bool:
        return self._one("SELECT 1 FROM users LIMIT 1") is None and self._one("SELECT 1 FROM contacts LIMIT 1") is None

    # -- writes -----------------------------------------------------------------------------
    def put_users(self, users: Iterable[User | dict[str, Any]], *, generation: int = 0, fetched_at: float | None = None) -> Changes:
        return self.put("users", users, generation=generation, fetched_at=fetched_at)

    def put_divisions(self, divisions: Iterable[Division | dict[str, Any]], *, generation: int = 0, fetched_at: float | None = None) -> Changes:
        return self.put("divisions", divisions, generation=generation, fetched_at=fetched_at)

    def put_contacts(self, contacts: Iterable[Contact | dict[str, Any]], *, generation: int = 0, fetched_at: float | None = None) -> Changes:
        return self.put("contacts", contacts, generation=generation, fetched_at=fetched_at)

    def put(self, table: Synced, records: Iterable[BaseModel | dict[str, Any]], *, generation: int = 0,
            fetched_at: float | None = None, checkpoint: SyncCheckpoint | None = None) -> Changes:
        """Store records of ``table`` (users, divisions or contacts) in one transaction;
        with ``checkpoint``, the sync progress is saved in the same transaction, so a killed
        sync resumes exactly after the last stored page."""
        rows = [dump(r) for r in records]
        now = fetched_at if fetched_at is not None else time.time()
        with self.transaction() as conn:
            if table == "divisions":
                changes = self._write_divisions(conn, rows, now, generation)
            else:
                changes = self._writer.put(conn, _KINDS[table], rows, [(now, generation)] * len(rows))
            if checkpoint is not None:
                checkpoint.save(conn)
        return changes

    def _write_divisions(self, conn: sqlite3.Connection, rows: list[dict[str, Any]], now: float, generation: int) -> Changes:
        """Divisions, and the people under any whose name or place changed indexed again
        (a division's name finds the people of the divisions under it)."""
        ids = [d["divisionId"] for d in rows]
        before: dict[int, str] = {}
        for chunk in chunks(ids):
            before.update(conn.execute(f"SELECT id, data FROM divisions WHERE id IN ({marks(len(chunk))})", chunk).fetchall())
        old = {i: json.loads(data) for i, data in before.items()}
        changed = [d for d in rows if d["divisionId"] in old and old[d["divisionId"]] != d]
        moved = [d["divisionId"] for d in changed if (d.get("divisionName"), d.get("parentDivisionId") or None)
                 != (old[d["divisionId"]].get("divisionName"), old[d["divisionId"]].get("parentDivisionId") or None)]
        conn.executemany(
            "INSERT OR REPLACE INTO divisions(id, parent_id, data, name, sort_score, fetched_at, generation, reading)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(d["divisionId"], d.get("parentDivisionId") or None, json.dumps(d, ensure_ascii=False), d.get("divisionName"),
              d.get("sortScore") or 0, now, generation, reading.division_sort_key(d)) for d in rows])
        self._writer.divisions_changed()
        self._index_division_phones(conn, rows)
        if moved:
            members = conn.execute(
                f"WITH RECURSIVE sub(id) AS (SELECT value FROM json_each(?) UNION SELECT d.id FROM divisions d JOIN sub ON d.parent_id = sub.id)"
                " SELECT DISTINCT user_id FROM user_divisions WHERE division_id IN (SELECT id FROM sub)", (json.dumps(moved),)).fetchall()
            self._writer.reindex(conn, indexing.USER, [r[0] for r in members])
        return Changes(added=sum(1 for i in ids if i not in old), changed=len(changed))

    def _index_division_phones(self, conn: sqlite3.Connection, rows: list[dict[str, Any]]) -> None:
        """A division's number in the phone index too: caller-ID names the division (N1's SHARED_NUMBER)."""
        conn.executemany("DELETE FROM division_phones WHERE id = ?", [(d["divisionId"],) for d in rows])
        conn.executemany("INSERT OR IGNORE INTO division_phones(key, id, field) VALUES (?, ?, ?)",
                         [(key, d["divisionId"], code) for d in rows
                          for key, code in indexing.phone_keys(d, ("divisionPhoneNum",), self._writer.key)])

    def _import_leftovers(self) -> None:
        """Move the records of a cache written before schema 6 into its tables (once, in one
        transaction; a cache killed half-way through is taken up again at the next open)."""
        with self._lock:
            present = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            leftovers = [t for t in LEFTOVERS if t in present]
            if not leftovers:
                return
            with self.transaction() as conn:
                for table in leftovers:
                    kind = _KINDS[table.removesuffix("_v5")]  # type: ignore[index]
                    cursor = conn.execute(f"SELECT data, fetched_at, generation FROM {table}")
                    while batch := cursor.fetchmany(1000):
                        self._writer.put(conn, kind, [json.loads(r[0]) for r in batch], [(r[1], r[2]) for r in batch])
                    conn.execute(f"DROP TABLE {table}")
                self._index_division_phones(conn, [json.loads(r[0]) for r in conn.execute("SELECT data FROM divisions")])

    def _read_divisions(self) -> None:
        """The reading of each division a cache written before schema 8 holds (once: the
        divisions written since carry theirs)."""
        with self._lock:
            unread = self._conn.execute("SELECT id, data FROM divisions WHERE reading IS NULL").fetchall()
            if unread:
                with self.transaction() as conn:
                    conn.executemany("UPDATE divisions SET reading = ? WHERE id = ?",
                                     [(reading.division_sort_key(json.loads(data)), i) for i, data in unread])

    def put_profile(self, user_id: int, profile: Profile | dict[str, Any], *, fetched_at: float | None = None) -> None:
        now = fetched_at if fetched_at is not None else time.time()
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO profiles(user_id, data, fetched_at) VALUES (?, ?, ?)",
                         (user_id, json.dumps(dump(profile), ensure_ascii=False), now))

    def checkpoint(self, resource: str) -> SyncCheckpoint | None:
        row = self._one("SELECT resource, generation, next_page, cursor, started_at, completed_at, page_size"
                        " FROM sync_state WHERE resource = ?", (resource,))
        return SyncCheckpoint(*row) if row else None

    def save_checkpoint(self, checkpoint: SyncCheckpoint) -> None:
        with self.transaction() as conn:
            checkpoint.save(conn)

    def delete_users(self, ids: Sequence[int]) -> None:
        with self.transaction() as conn:
            self._writer.delete(conn, indexing.USER, ids)
            conn.executemany("DELETE FROM profiles WHERE user_id = ?", [(i,) for i in ids])

    def delete_contacts(self, ids: Sequence[int]) -> None:
        with self.transaction() as conn:
            self._writer.delete(conn, indexing.CONTACT, ids)

    def delete_divisions(self, ids: Sequence[int]) -> None:
        """The divisions and their numbers. Their ``user_divisions`` rows stay: they say which
        people's records name a division, and those records still do (should it come back
        and be renamed, its people's search terms and caller-ID answers are found by them)."""
        with self.transaction() as conn:
            conn.executemany("DELETE FROM divisions WHERE id = ?", [(i,) for i in ids])
            conn.executemany("DELETE FROM division_phones WHERE id = ?", [(i,) for i in ids])

    def ids_older_than(self, table: Literal["users", "divisions", "contacts"], generation: int) -> list[int]:
        """Rows not seen by the sync pass ``generation`` (candidates for deletion)."""
        return [r[0] for r in self._rows(f"SELECT id FROM {table} WHERE generation < ?", (generation,))]

    def max_generation(self, table: Literal["users", "divisions", "contacts"]) -> int:
        return self._one(f"SELECT COALESCE(MAX(generation), 0) FROM {table}")[0]

    # -- caller-ID ----------------------------------------------------------------------------
    def holders(self, forms: list[str], limit: int = numbers.MAX_HOLDERS) -> Any:
        """Who holds the first of ``forms`` (spellings of one number) the cache knows: see
        :func:`corpdir.cache.numbers.read` (what :mod:`corpdir.service.identify` answers from)."""
        with self._lock:
            return numbers.read(self._conn, forms, self.region, self.codec, limit)
