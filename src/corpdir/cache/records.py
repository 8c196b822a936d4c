"""Writing users and contacts with their indexes, a page at a time.

A sync must be paced by the service's rate limit, not by indexing. A page is
written in one transaction with every index row built in bulk: the record rows, the
B-tree terms (sorted, so inserts walk the tree once), the trigram documents and the
phone keys, each as one ``executemany``; no triggers. A record that comes back
unchanged (most of every full pass) costs one UPDATE of its generation and fetch time.
What a record was indexed under is read back from its own ``terms`` string, so taking
it out again is exact, whatever the record or its divisions say now.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable, Sequence

from corpdir.cache import blobs, indexing, reading
from corpdir.cache.division_paths import path_names
from corpdir.cache.indexing import Kind
from corpdir.sqlite import chunks, marks

_first = itemgetter(0)


@dataclass(frozen=True)
class Changes:
    added: int = 0
    changed: int = 0
    removed: int = 0

    def __add__(self, other: Changes) -> Changes:
        return Changes(self.added + other.added, self.changed + other.changed, self.removed + other.removed)


@dataclass(frozen=True)
class _Old:
    data: bytes
    terms: str
    score: int


class RecordWriter:
    """Bulk writes of users and contacts on one connection (the caller holds the
    transaction). ``key`` is the phone match key of the cache's region."""

    def __init__(self, codec: blobs.Codec, key: Callable[[str], str]) -> None:
        self.codec = codec
        self.key = key
        self._paths: dict[int, list[str]] | None = None

    def divisions_changed(self) -> None:
        self._paths = None

    def _division_paths(self, conn: sqlite3.Connection) -> dict[int, list[str]]:
        if self._paths is None:
            self._paths = path_names(conn, [r[0] for r in conn.execute("SELECT id FROM divisions")])
        return self._paths

    def _old(self, conn: sqlite3.Connection, kind: Kind, ids: Sequence[int]) -> dict[int, _Old]:
        score = "sort_score" if kind is indexing.USER else "0"
        out: dict[int, _Old] = {}
        for chunk in chunks(ids):
            for rid, data, terms, sc in conn.execute(
                    f"SELECT id, data, terms, {score} FROM {kind.table} WHERE id IN ({marks(len(chunk))})", chunk):
                out[rid] = _Old(data, terms, sc)
        return out

    def put(self, conn: sqlite3.Connection, kind: Kind, records: Sequence[dict[str, Any]],
            stamps: Sequence[tuple[float, int]]) -> Changes:
        """Store ``records`` (service-shaped dicts) with their (fetched_at, generation)."""
        latest = {r[kind.id_field]: (r, stamp) for r, stamp in zip(records, stamps)}  # a repeated id: its last copy
        old = self._old(conn, kind, list(latest))
        texts = {rid: blobs.dumps(r) for rid, (r, _) in latest.items()}
        same, fresh, gone = [], [], []
        added = changed = 0
        for rid, (data, (fetched_at, generation)) in latest.items():
            before = old.get(rid)
            if before is not None:
                text = self.codec.unpack(before.data)
                if text == texts[rid] or json.loads(text) == data:
                    same.append((fetched_at, generation, rid))
                    continue
                changed += 1
                gone.append((rid, before, json.loads(text)))
            else:
                added += 1
            fresh.append((rid, data, fetched_at, generation))
        if same:
            conn.executemany(f"UPDATE {kind.table} SET fetched_at = ?, generation = ? WHERE id = ?", same)
        self._unindex(conn, kind, gone)
        if fresh:
            self.codec.prepare(kind.table, [texts[rid] for rid, *_ in fresh])
            self._insert(conn, kind, [(rid, data, texts[rid], fetched_at, generation) for rid, data, fetched_at, generation in fresh])
        return Changes(added, changed)

    def reindex(self, conn: sqlite3.Connection, kind: Kind, ids: Sequence[int]) -> None:
        """Index ``ids`` again from their stored records (their divisions were renamed or moved)."""
        rows = []
        for chunk in chunks(ids):
            rows += conn.execute(f"SELECT id, data, terms, fetched_at, generation FROM {kind.table}"
                                 f" WHERE id IN ({marks(len(chunk))})", chunk).fetchall()
        paths = self._division_paths(conn)
        stale = []
        for rid, blob, terms, fetched_at, generation in rows:
            data = self.codec.load(blob)
            if indexing.encode_terms(kind.terms(data, paths)) != terms:
                stale.append((rid, data, fetched_at, generation))
        if stale:
            self.delete(conn, kind, [rid for rid, *_ in stale])
            self.put(conn, kind, [data for _, data, _, _ in stale], [(f, g) for _, _, f, g in stale])

    def delete(self, conn: sqlite3.Connection, kind: Kind, ids: Sequence[int]) -> None:
        old = self._old(conn, kind, ids)
        self._unindex(conn, kind, [(rid, o, self.codec.load(o.data)) for rid, o in old.items()])
        conn.executemany(f"DELETE FROM {kind.table} WHERE id = ?", [(i,) for i in old])

    # -- the index rows ------------------------------------------------------------------
    def _unindex(self, conn: sqlite3.Connection, kind: Kind, gone: list[tuple[int, _Old, dict[str, Any]]]) -> None:
        if not gone:
            return
        name = kind.name
        if kind is indexing.USER:
            conn.executemany("DELETE FROM user_terms WHERE term = ? AND score = ? AND id = ?",
                             [(term, o.score, rid) for rid, o, _ in gone for term, _, _ in indexing.decode_terms(o.terms)])
            conn.executemany("DELETE FROM user_divisions WHERE user_id = ?", [(rid,) for rid, _, _ in gone])
        else:
            conn.executemany("DELETE FROM contact_terms WHERE term = ? AND id = ?",
                             [(term, rid) for rid, o, _ in gone for term, _, _ in indexing.decode_terms(o.terms)])
        conn.executemany(f"INSERT INTO {name}_fts({name}_fts, rowid, doc) VALUES ('delete', ?, ?)",
                         [(rid, indexing.document(o.terms)) for rid, o, _ in gone])
        conn.executemany(f"DELETE FROM {name}_phones WHERE key = ? AND id = ?",
                         [(k, rid) for rid, _, data in gone for k, _ in indexing.phone_keys(data, kind.phone_fields, self.key)])

    def _insert(self, conn: sqlite3.Connection, kind: Kind, rows: list[tuple[int, dict[str, Any], bytes, float, int]]) -> None:
        paths = self._division_paths(conn) if kind is indexing.USER else {}
        codec, name = self.codec, kind.name
        records, terms, docs, phones = [], [], [], []
        for rid, data, text, fetched_at, generation in rows:
            lines = indexing.index_lines(kind.terms(data, paths))
            encoded = indexing.encode_lines(lines)
            blob = codec.pack(kind.table, text)
            key = reading.sort_key(data)
            if kind is indexing.USER:
                score = data.get("sortScore") or 0
                records.append((rid, blob, encoded, key, score, data.get("employeeNum"), fetched_at, generation))
                terms += [(term, score, rid, code) for term, code, _ in lines]
            else:
                folder = data.get("folderId") or {}
                records.append((rid, blob, encoded, key, folder.get("directory"), folder.get("folderNum"), fetched_at, generation))
                terms += [(term, rid, code) for term, code, _ in lines]
            docs.append((rid, indexing.lines_document(lines)))
            phones += [(k, rid, code) for k, code in indexing.phone_keys(data, kind.phone_fields, self.key)]
        terms.sort(key=_first)  # by term alone: 2.3x faster than by whole rows, and as good for the B-tree
        phones.sort(key=_first)
        if kind is indexing.USER:
            conn.executemany("INSERT OR REPLACE INTO users(id, data, terms, reading, sort_score, employee_num, fetched_at, generation)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", records)
            conn.executemany("INSERT OR IGNORE INTO user_terms(term, score, id, field) VALUES (?, ?, ?, ?)", terms)
            conn.executemany("INSERT OR IGNORE INTO user_divisions(division_id, user_id) VALUES (?, ?)",
                             [(d["divisionId"], rid) for rid, data, *_ in rows for d in data.get("divisions") or ()])
        else:
            conn.executemany("INSERT OR REPLACE INTO contacts(id, data, terms, reading, directory, folder_num, fetched_at, generation)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", records)
            conn.executemany("INSERT OR IGNORE INTO contact_terms(term, id, field) VALUES (?, ?, ?)", terms)
        conn.executemany(f"INSERT INTO {name}_fts(rowid, doc) VALUES (?, ?)", docs)
        conn.executemany(f"INSERT OR IGNORE INTO {name}_phones(key, id, field) VALUES (?, ?, ?)", phones)
