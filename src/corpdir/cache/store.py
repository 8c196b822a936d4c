"""The local SQLite mirror of one profile: records as the service returned them.

The cache is a read model: writes go to the API, and the record the API returns is put
here. Each record remembers when it was fetched, so the UI can say how stale a view is.
The store is synchronous and thread-safe (one connection, one lock); the UI calls it
through :class:`corpdir.cache.aio.AsyncCache` so SQLite never runs on the event loop,
while `corpdir lookup` calls it directly to stay fast.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Iterable, Iterator, Literal, Sequence, TypeVar

from pydantic import BaseModel

from corpdir.cache import blobs, indexing, numbers, reading
from corpdir.cache.division_paths import path_names
from corpdir.cache.records import Changes, RecordWriter
from corpdir.cache.schema import LEFTOVERS, migrate
from corpdir.phone import DEFAULT_REGION, match_key
from corpdir.spec.division import Division
from corpdir.spec.user import User
from corpdir.sqlite import chunks, marks, transaction

if TYPE_CHECKING:  # imported where first used: the first screen shows people and divisions only
    from corpdir.spec.calls import IncomingCall, OutgoingCall
    from corpdir.spec.contact import Contact
    from corpdir.spec.folder import Folder, PersonalFolder
    from corpdir.spec.profile import Profile

M = TypeVar("M", bound=BaseModel)
UserOrder = Literal["fullname", "sortScore", "employeeNum"]
_USER_ORDER_COLUMNS = {"fullname": "reading", "sortScore": "sort_score", "employeeNum": "employee_num"}  # "by name": by reading
Direction = Literal["incoming", "outgoing"]


@dataclass(frozen=True)
class Cached(Generic[M]):
    """A record and the time (epoch seconds) it was fetched from the service."""

    record: M
    fetched_at: float

    def age(self, now: float | None = None) -> float:
        return (now if now is not None else time.time()) - self.fetched_at


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


def _dump(record: BaseModel | dict[str, Any]) -> dict[str, Any]:
    if isinstance(record, BaseModel):
        return record.model_dump(mode="json", exclude_none=True)
    return record


class CacheStore:
    """One profile's cache database (a file with mode 0600, or ``:memory:``)."""

    def __init__(self, path: str | Path = ":memory:", *, region: str = DEFAULT_REGION) -> None:
        self.path = str(path)
        self.region = region
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
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
        numbers.remember_region_rules(self._conn, region)
        self.codec = blobs.Codec(self._conn)
        self._writer = RecordWriter(self.codec, lambda number: match_key(number, region))
        self._calls_written = 0
        self._import_leftovers()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- plumbing ---------------------------------------------------------------------------
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
        rows = [_dump(r) for r in records]
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
            "INSERT OR REPLACE INTO divisions(id, parent_id, data, name, sort_score, fetched_at, generation)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(d["divisionId"], d.get("parentDivisionId") or None, json.dumps(d, ensure_ascii=False), d.get("divisionName"),
              d.get("sortScore") or 0, now, generation) for d in rows])
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

    @staticmethod
    def _compare(conn: sqlite3.Connection, sql: str, rows: list[tuple[Any, ...]], *, whole: bool,
                 params: Sequence[Any] = ()) -> Changes:
        """What ``rows`` (key columns, the JSON, then one more column) change against
        ``sql``'s (key columns, JSON) rows: added and changed records, and with ``whole``
        (the rows are the complete list) removed ones. A sync says only what is new."""
        before = {tuple(r[:-1]): r[-1] for r in conn.execute(sql, params)}
        keys = [tuple(r[:-2]) for r in rows]
        added = sum(1 for k in keys if k not in before)
        changed = sum(1 for k, r in zip(keys, rows) if k in before and json.loads(before[k]) != json.loads(r[-2]))
        return Changes(added, changed, len(set(before) - set(keys)) if whole else 0)

    def put_folders(self, folders: Iterable[Folder | dict[str, Any]], *, fetched_at: float | None = None) -> Changes:
        now = fetched_at if fetched_at is not None else time.time()
        rows = [(d["folderId"]["directory"], d["folderId"]["folderNum"], json.dumps(d, ensure_ascii=False), now)
                for d in map(_dump, folders)]
        with self.transaction() as conn:
            changes = self._compare(conn, "SELECT directory, folder_num, data FROM folders", rows, whole=True)
            conn.execute("DELETE FROM folders")
            conn.executemany("INSERT INTO folders(directory, folder_num, data, fetched_at) VALUES (?, ?, ?, ?)", rows)
        return changes

    def put_personal_folders(self, folders: Iterable[PersonalFolder | dict[str, Any]], *, fetched_at: float | None = None) -> Changes:
        now = fetched_at if fetched_at is not None else time.time()
        rows = [(d["folderNum"], json.dumps(d, ensure_ascii=False), now) for d in map(_dump, folders)]
        with self.transaction() as conn:
            changes = self._compare(conn, "SELECT folder_num, data FROM personal_folders", rows, whole=False)
            conn.executemany("INSERT OR REPLACE INTO personal_folders(folder_num, data, fetched_at) VALUES (?, ?, ?)", rows)
        return changes

    def put_profile(self, user_id: int, profile: Profile | dict[str, Any], *, fetched_at: float | None = None) -> None:
        now = fetched_at if fetched_at is not None else time.time()
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO profiles(user_id, data, fetched_at) VALUES (?, ?, ?)",
                         (user_id, json.dumps(_dump(profile), ensure_ascii=False), now))

    def put_calls(self, direction: Direction, records: Iterable[IncomingCall | OutgoingCall | dict[str, Any]], *, fetched_at: float | None = None) -> Changes:
        """Calls as a poll of H1/H4 returns them. Only these ids are read back, compared as
        text first (parsed only when the text differs), and only new or changed calls are
        written: a poll with nothing new writes nothing, whatever the history's length, and
        another process's :meth:`calls_version` stays put."""
        now = fetched_at if fetched_at is not None else time.time()
        id_field, at_field = ("incomingCallHistoryId", "calledAt") if direction == "incoming" else ("outgoingCallHistoryId", "callingAt")
        latest = {d[id_field]: d for d in map(_dump, records)}  # a repeated id: its last copy
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
        with self.transaction() as conn:
            conn.executemany("DELETE FROM divisions WHERE id = ?", [(i,) for i in ids])
            conn.executemany("DELETE FROM user_divisions WHERE division_id = ?", [(i,) for i in ids])
            conn.executemany("DELETE FROM division_phones WHERE id = ?", [(i,) for i in ids])

    def ids_older_than(self, table: Literal["users", "divisions", "contacts"], generation: int) -> list[int]:
        """Rows not seen by the sync pass ``generation`` (candidates for deletion)."""
        return [r[0] for r in self._rows(f"SELECT id FROM {table} WHERE generation < ?", (generation,))]

    def max_generation(self, table: Literal["users", "divisions", "contacts"]) -> int:
        return self._one(f"SELECT COALESCE(MAX(generation), 0) FROM {table}")[0]

    # -- reads ------------------------------------------------------------------------------
    def _record(self, model: type[M], sql: str, params: Sequence[Any]) -> Cached[M] | None:
        row = self._one(sql, params)
        return Cached(model.model_validate_json(self.codec.unpack(row[0])), row[1]) if row else None

    def user(self, user_id: int) -> Cached[User] | None:
        return self._record(User, "SELECT data, fetched_at FROM users WHERE id = ?", (user_id,))

    def contact(self, contact_id: int) -> Cached[Contact] | None:
        from corpdir.spec.contact import Contact
        return self._record(Contact, "SELECT data, fetched_at FROM contacts WHERE id = ?", (contact_id,))

    def division(self, division_id: int) -> Cached[Division] | None:
        return self._record(Division, "SELECT data, fetched_at FROM divisions WHERE id = ?", (division_id,))

    def profile(self, user_id: int) -> Cached[Profile] | None:
        from corpdir.spec.profile import Profile
        return self._record(Profile, "SELECT data, fetched_at FROM profiles WHERE user_id = ?", (user_id,))

    def users(self, ids: Sequence[int]) -> list[User]:
        """Users by id, in the order of ``ids`` (missing ones skipped)."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        found = {r[0]: User.model_validate_json(self.codec.unpack(r[1])) for r in self._rows(f"SELECT id, data FROM users WHERE id IN ({marks})", ids)}
        return [found[i] for i in ids if i in found]

    def contacts(self, ids: Sequence[int]) -> list[Contact]:
        from corpdir.spec.contact import Contact
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        found = {r[0]: Contact.model_validate_json(self.codec.unpack(r[1])) for r in self._rows(f"SELECT id, data FROM contacts WHERE id IN ({marks})", ids)}
        return [found[i] for i in ids if i in found]

    def child_divisions(self, parent_id: int | None) -> list[Division]:
        """Divisions directly under ``parent_id`` (None: the top layer), by sortScore then name."""
        where = "parent_id IS NULL" if parent_id is None else "parent_id = ?"
        params = () if parent_id is None else (parent_id,)
        return [Division.model_validate_json(r[0])
                for r in self._rows(f"SELECT data FROM divisions WHERE {where} ORDER BY sort_score DESC, name, id", params)]

    def division_paths(self, ids: Iterable[int]) -> dict[int, list[str]]:
        """Each cached division's names from the top down (see :mod:`corpdir.division_path`)."""
        with self._lock:
            return path_names(self._conn, ids)

    def all_divisions(self) -> list[Division]:
        """Every cached division (a picker offers them all)."""
        return [Division.model_validate_json(r[0]) for r in self._rows("SELECT data FROM divisions")]

    def subtree_ids(self, division_id: int) -> list[int]:
        rows = self._rows(
            "WITH RECURSIVE sub(id) AS (SELECT ? UNION SELECT d.id FROM divisions d JOIN sub ON d.parent_id = sub.id)"
            " SELECT id FROM sub", (division_id,))
        return [r[0] for r in rows]

    def _member_filter(self, division_id: int | None, include_sub: bool) -> tuple[str, list[Any]]:
        if division_id is None:
            return "", []
        ids = self.subtree_ids(division_id) if include_sub else [division_id]
        marks = ",".join("?" * len(ids))
        return f"WHERE u.id IN (SELECT user_id FROM user_divisions WHERE division_id IN ({marks}))", list(ids)

    def count_users(self, division_id: int | None = None, *, include_sub: bool = False) -> int:
        where, params = self._member_filter(division_id, include_sub)
        return self._one(f"SELECT COUNT(*) FROM users u {where}", params)[0]

    def list_users(self, division_id: int | None = None, *, include_sub: bool = False, order_by: UserOrder = "fullname",
                   descending: bool = False, offset: int = 0, limit: int = 100) -> list[User]:
        """A window of users (for virtual lists: rows are fetched by index, never all at once)."""
        where, params = self._member_filter(division_id, include_sub)
        column = _USER_ORDER_COLUMNS[order_by]
        direction = "DESC" if descending else "ASC"
        rows = self._rows(
            f"SELECT data FROM users u {where} ORDER BY {column} {direction}, id {direction} LIMIT ? OFFSET ?",
            [*params, limit, offset])
        return [User.model_validate_json(self.codec.unpack(r[0])) for r in rows]

    def users_row_offset(self, row: str, division_id: int | None = None, *, include_sub: bool = False) -> int:
        """Where the index row ``row`` ('か', or a letter 'K') starts in the users "by name"
        (the count of those that sort before it): a jump-to-row key scrolls there."""
        where, params = self._member_filter(division_id, include_sub)
        clause = f"{where} AND" if where else "WHERE"
        return self._one(f"SELECT COUNT(*) FROM users u {clause} u.reading < ?", [*params, reading.row_start(row)])[0]

    def contacts_row_offset(self, row: str, directory: str | None = None, folder_num: int | None = None) -> int:
        """As :meth:`users_row_offset`, for contacts "by name"."""
        where, params = self._folder_filter(directory, folder_num)
        clause = f"{where} AND" if where else "WHERE"
        return self._one(f"SELECT COUNT(*) FROM contacts {clause} reading < ?", [*params, reading.row_start(row)])[0]

    def user_ids(self, division_id: int | None = None, *, include_sub: bool = False) -> list[int]:
        """Every user's id (of a division) in name order. A whole-list reader (an export)
        sorts the ids once and reads the records a batch at a time with :meth:`users`,
        rather than sorting the table again for each window of :meth:`list_users`."""
        where, params = self._member_filter(division_id, include_sub)
        column = _USER_ORDER_COLUMNS["fullname"]  # the same order as list_users's "by name"
        return [r[0] for r in self._rows(f"SELECT id FROM users u {where} ORDER BY {column}, id", params)]

    def contact_ids(self, directory: str | None = None, folder_num: int | None = None) -> list[int]:
        """Every contact's id (of a directory or folder) in name order; see :meth:`user_ids`."""
        where, params = self._folder_filter(directory, folder_num)
        return [r[0] for r in self._rows(f"SELECT id FROM contacts {where} ORDER BY reading, id", params)]

    def count_contacts(self, directory: str | None = None, folder_num: int | None = None) -> int:
        where, params = self._folder_filter(directory, folder_num)
        return self._one(f"SELECT COUNT(*) FROM contacts {where}", params)[0]

    def list_contacts(self, directory: str | None = None, folder_num: int | None = None, *, offset: int = 0, limit: int = 100) -> list[Contact]:
        from corpdir.spec.contact import Contact
        where, params = self._folder_filter(directory, folder_num)
        rows = self._rows(f"SELECT data FROM contacts {where} ORDER BY reading, id LIMIT ? OFFSET ?", [*params, limit, offset])
        return [Contact.model_validate_json(self.codec.unpack(r[0])) for r in rows]

    @staticmethod
    def _folder_filter(directory: str | None, folder_num: int | None) -> tuple[str, list[Any]]:
        clauses, params = [], []
        if directory is not None:
            clauses.append("directory = ?")
            params.append(directory)
        if folder_num is not None:
            clauses.append("folder_num = ?")
            params.append(folder_num)
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", params

    def folders(self) -> list[Folder]:
        from corpdir.spec.folder import Folder
        return [Folder.model_validate_json(r[0]) for r in self._rows("SELECT data FROM folders ORDER BY directory DESC, folder_num")]

    def personal_folders(self) -> list[PersonalFolder]:
        from corpdir.spec.folder import PersonalFolder
        return [PersonalFolder.model_validate_json(r[0]) for r in self._rows("SELECT data FROM personal_folders ORDER BY folder_num")]

    def calls(self, direction: Direction, *, answered: bool | None = None, newest_first: bool = True, limit: int = 500) -> list[IncomingCall | OutgoingCall]:
        from corpdir.spec.calls import IncomingCall, OutgoingCall
        model = IncomingCall if direction == "incoming" else OutgoingCall
        rows = self._rows(
            f"SELECT data FROM calls WHERE direction = ? ORDER BY at {'DESC' if newest_first else 'ASC'}, id LIMIT ?",
            (direction, limit))
        records = [model.model_validate_json(r[0]) for r in rows]
        return [r for r in records if answered is None or r.answered == answered]

    # -- caller-ID ----------------------------------------------------------------------------
    def holders(self, forms: list[str], limit: int = numbers.MAX_HOLDERS) -> Any:
        """Who holds the first of ``forms`` (spellings of one number) the cache knows: see
        :func:`corpdir.cache.numbers.read` (what :mod:`corpdir.service.identify` answers from)."""
        with self._lock:
            return numbers.read(self._conn, forms, self.region, self.codec, limit)
