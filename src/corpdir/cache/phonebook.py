"""Read queries behind the phonebook gateway, on a connection of their own.

The gateway answers PBXs and desk phones while a sync writes the same file: a separate
read-only connection (WAL) never waits for the writer. Records come back as the JSON the
service returned (dicts, expanded from the cache's compressed form), with the phone field that matched, so a caller-ID answer can
say *which* of someone's numbers called.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator

from corpdir.cache.blobs import Codec
from corpdir.cache.fields import FIELDS
from corpdir.cache.numbers import prime_region_rules
from corpdir.sqlite import chunks, marks

_WHO = (  # the first holders by (kind, id) first, then their records: a company's main number has hundreds
    "SELECT p.kind, p.id, p.field, COALESCE(u.data, c.data) FROM"
    " (SELECT 'user' AS kind, id, field FROM user_phones WHERE key = ?1"
    "  UNION ALL SELECT 'contact', id, field FROM contact_phones WHERE key = ?1 ORDER BY 1 DESC, 2 LIMIT ?2) p"
    " LEFT JOIN users u ON p.kind = 'user' AND u.id = p.id"
    " LEFT JOIN contacts c ON p.kind = 'contact' AND c.id = p.id ORDER BY p.kind DESC, p.id"
)
MAX_HOLDERS = 5  # a company's main number is on hundreds of contacts: an answer needs the first few
# Everyone with a number, in phone-book order (the reading in gojūon order, corpdir.cache.reading):
# users, and the contacts of the shared folders (a personal folder is one person's, not the
# company's phonebook).
_ORDER = (
    "SELECT kind, id FROM ("
    " SELECT 'user' AS kind, id, reading FROM users WHERE id IN (SELECT id FROM user_phones)"
    " UNION ALL"
    " SELECT 'contact', id, reading FROM contacts WHERE directory = 'SHARED' AND id IN (SELECT id FROM contact_phones))"
    " ORDER BY reading, kind DESC, id"
)


def open_reader(path: str | Path, region: str) -> sqlite3.Connection:
    """A read-only connection to the cache file (usable from one thread at a time)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    conn.execute("PRAGMA mmap_size = 268435456")  # records read in place, not copied into SQLite's page cache
    prime_region_rules(conn, region)
    return conn


def data_version(conn: sqlite3.Connection) -> int:
    """Changes when another connection commits: the gateway rebuilds what it derived."""
    return conn.execute("PRAGMA data_version").fetchone()[0]


def who_has(conn: sqlite3.Connection, key: str, limit: int = MAX_HOLDERS,
            codec: Codec | None = None) -> list[tuple[str, int, str, str, dict[str, Any]]]:
    """(kind, id, field, number as stored, record) for the records holding the number
    whose match key is ``key`` (at most ``limit``, at most MAX_HOLDERS); users first.
    ``codec``: one kept with the connection, so its dictionaries are not read again."""
    out = []
    seen: set[tuple[str, int]] = set()
    codec = codec or Codec(conn)
    for kind, rid, code, blob in conn.execute(_WHO, (key, min(limit, MAX_HOLDERS))):
        if blob is not None and (kind, rid) not in seen:
            seen.add((kind, rid))
            record, field = codec.load(blob), FIELDS[code]
            out.append((kind, rid, field, record.get(field) or "", record))
    return out


def reading_order(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(kind, id) of every phonebook entry, in reading order."""
    return [(kind, rid) for kind, rid in conn.execute(_ORDER)]


def records(conn: sqlite3.Connection, kind: str, ids: list[int], codec: Codec | None = None) -> dict[int, dict[str, Any]]:
    """Records of one kind by id (missing ids left out). ``codec``: as for :func:`who_has`."""
    table = "users" if kind == "user" else "contacts"
    codec = codec or Codec(conn)
    found: dict[int, dict[str, Any]] = {}
    for chunk in chunks(ids):
        sql = f"SELECT id, data FROM {table} WHERE id IN ({marks(len(chunk))})"
        found.update((rid, codec.load(blob)) for rid, blob in conn.execute(sql, chunk))
    return found


def all_records(conn: sqlite3.Connection, kind: str, codec: Codec | None = None) -> Iterator[dict[str, Any]]:
    """Every record of one kind (users, or shared-folder contacts), as stored."""
    sql = "SELECT data FROM users" if kind == "user" else "SELECT data FROM contacts WHERE directory = 'SHARED'"
    codec = codec or Codec(conn)
    for (blob,) in conn.execute(sql):
        yield codec.load(blob)


def divisions(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    return [json.loads(blob) for (blob,) in conn.execute("SELECT data FROM divisions")]
