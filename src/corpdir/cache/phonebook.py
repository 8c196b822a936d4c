"""Read queries behind the phonebook gateway's listings, on a connection of their own.

The gateway answers PBXs and desk phones while a sync writes the same file: a separate
read-only connection (WAL) never waits for the writer. Records come back as the JSON the
service returned (dicts, expanded from the cache's compressed form). Who holds a number
is :mod:`corpdir.cache.numbers`' question, read on the same kind of connection.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator

from corpdir.cache import bulk_unpack, numbers
from corpdir.cache.blobs import Codec
from corpdir.cache.fields import CODES
from corpdir.cache.indexing import encode_lines
from corpdir.sqlite import chunks, marks

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


def open_reader(path: str | Path, region: str, *, mapped: bool = True) -> sqlite3.Connection:
    """A read-only connection to the cache file (usable from one thread at a time).
    ``mapped``: records read in place through a memory map rather than copied into
    SQLite's page cache (a server reading the same pages again); not for one pass over
    every record (an export), where each page read would stay in the process's memory."""
    conn = numbers.open_reader(path, region, threads=True)
    if conn is None:
        raise FileNotFoundError(f"no cache at {path}: sync first")
    if mapped:
        conn.execute("PRAGMA mmap_size = 268435456")
    return conn


def hold_state(conn: sqlite3.Connection) -> None:
    """Open a read transaction: every read on ``conn`` from here on sees one state of the
    cache, whatever a sync commits meanwhile (WAL), until the connection closes."""
    conn.execute("BEGIN")


def data_version(conn: sqlite3.Connection) -> int:
    """Changes when another connection commits: the gateway rebuilds what it derived."""
    return conn.execute("PRAGMA data_version").fetchone()[0]


def number_keys(conn: sqlite3.Connection) -> list[str]:
    """Every number the phone index holds (users', contacts', divisions'), each once, as it
    keys them (:func:`corpdir.phone.match_key`): what caller-ID can answer from the cache."""
    return [key for (key,) in conn.execute(
        "SELECT key FROM user_phones UNION SELECT key FROM contact_phones UNION SELECT key FROM division_phones")]


def reading_order(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(kind, id) of every phonebook entry, in reading order."""
    return conn.execute(_ORDER).fetchall()


# The first line of a record's ``terms`` is its whole name's when it has one (indexing).
_NAME_MARKS = tuple(encode_lines([("", CODES["fullname"], fts)]) for fts in (True, False))


def named(conn: sqlite3.Connection, kind: str, term: str) -> list[int]:
    """Ids of the records of one kind whose search terms hold ``term`` (a name folded as
    :func:`corpdir.cache.folding.fold` folds it; any field), or with "" of those with no
    name: the candidates for the holders of one name, found without reading every record."""
    if term:
        return [rid for (rid,) in conn.execute(f"SELECT id FROM {kind}_terms WHERE term = ?", (term,))]
    table = "users" if kind == "user" else "contacts"
    return [rid for (rid,) in conn.execute(f"SELECT id FROM {table} WHERE substr(terms, 1, 1) NOT IN (?, ?)", _NAME_MARKS)]


def records(conn: sqlite3.Connection, kind: str, ids: list[int], codec: Codec | None = None) -> dict[int, dict[str, Any]]:
    """Records of one kind by id (missing ids left out). ``codec``: one kept with the connection, so its dictionaries are not read again."""
    table = "users" if kind == "user" else "contacts"
    codec = codec or Codec(conn)
    found: dict[int, dict[str, Any]] = {}
    for chunk in chunks(ids):
        sql = f"SELECT id, data FROM {table} WHERE id IN ({marks(len(chunk))})"
        found.update((rid, codec.load(blob)) for rid, blob in conn.execute(sql, chunk))
    return found


def all_records(conn: sqlite3.Connection, kind: str) -> Iterator[dict[str, Any]]:
    """Every record of one kind (users, or shared-folder contacts), as stored."""
    sql = "SELECT data FROM users" if kind == "user" else "SELECT data FROM contacts WHERE directory = 'SHARED'"
    with bulk_unpack.expanding(conn) as codec:  # one pass over every record: one decompression context
        for (blob,) in conn.execute(sql):
            yield codec.load(blob)


def divisions(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    return [json.loads(blob) for (blob,) in conn.execute("SELECT data FROM divisions")]
