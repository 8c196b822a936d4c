"""Who holds a phone number, from the cache: the one reader behind every caller-ID answer.

`corpdir lookup`, the Lookup screen, the pop-up, the gateway (every format, LDAP) and the
call record all identify a number through :func:`read` (and
:mod:`corpdir.service.identify`, which makes the answer of it). Plain sqlite3, no
pydantic or httpx: a PBX pipe pays only for sqlite3 at start-up.

The holders come in N1's order (the reference server's rule, server/storage/identify.py):
users' own numbers, else contacts' own numbers, else a division's own number, else a
company's or a division's number written on contacts (many people answer those). Only the
first group is read, and of it the first few records: a company's main line is on
hundreds of contacts, whose count is enough.
"""

from __future__ import annotations

import time

from corpdir.cache.blobs import Codec
from corpdir.cache.lean import loads, sqlite3
from corpdir.cache.division_paths import path_pairs
from corpdir.cache.fields import FIELDS
from corpdir.phone import DEFAULT_REGION, match_key
from corpdir.phone_rules import RegionRules, region_rules, use_region_rules

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Callable, Iterable

_SQL = (  # who holds a number: index rows only; the records the answer names are read after
    "SELECT 'user', id, field FROM user_phones WHERE key = ?1"
    " UNION ALL SELECT 'contact', id, field FROM contact_phones WHERE key = ?1"
    " UNION ALL SELECT 'division', id, field FROM division_phones WHERE key = ?1 ORDER BY 1 DESC, 2"
)
_TABLES = {"user": "users", "contact": "contacts", "division": "divisions"}
SHARED_FIELDS = ("companyDelegatedPhoneNum", "divisionDelegatedPhoneNum")  # many people answer these
GROUPS = ("user", "contact", "division", "shared")  # N1's order
MAX_HOLDERS = 5  # records an answer reads at most (the first holders it names)


def open_reader(path: str | Path, region: str, *, threads: bool = False) -> sqlite3.Connection | None:
    """The cache file read-only (None: there is none, or it was never filled), with the
    region's number rules primed from it. ``threads``: usable from one thread at a time
    but not only the one that opened it (the gateway's)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=not threads)
    except sqlite3.OperationalError:
        return None
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] < 1:
            conn.close()
            return None
        prime_region_rules(conn, region)
    except sqlite3.DatabaseError:
        conn.close()
        return None
    return conn


def damage(path: str | Path) -> str | None:
    """Why the cache file at ``path`` cannot be read as a database ("file is not a
    database"), or None: no file, a cache never filled, or one that reads."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.OperationalError:
        return None
    try:
        conn.execute("PRAGMA user_version").fetchone()
        conn.execute("SELECT count(*) FROM meta").fetchone()
    except sqlite3.OperationalError:
        return None
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        conn.close()
    return None


def synced_age(conn: sqlite3.Connection | None, now: float | None = None) -> float | None:
    """Seconds since the users were last synced into the cache (None: never)."""
    if conn is None:
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'synced_at:users'").fetchone()
    return (now if now is not None else time.time()) - float(row[0]) if row else None


def remember_region_rules(conn: sqlite3.Connection, region: str) -> None:
    """Keep the region's number rules in the cache (from phonenumbers, once; again when
    the cache's rules lack one this corpdir knows, e.g. ``shortest``: without it every
    extension `corpdir lookup` is asked would import phonenumbers, ~20 ms), and let the
    phone fast path use them (the TUI's first frame formats its numbers by them)."""
    key = f"phone_rules:{region}"
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    kept = loads(row[0]) if row is not None else {}
    if not set(RegionRules._fields) <= set(kept):
        rules = region_rules(region)
        if rules is None:
            return
        import json

        kept = rules.as_dict()
        with conn:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, json.dumps(kept)))
    use_region_rules(region, kept)


def prime_region_rules(conn: sqlite3.Connection, region: str) -> None:
    """Let the phone fast path use the rules the cache kept: no phonenumbers import."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"phone_rules:{region}",)).fetchone()
    if row is not None:
        use_region_rules(region, loads(row[0]))


def read(conn: sqlite3.Connection, forms: Iterable[str], region: str = DEFAULT_REGION, codec: Codec | None = None,
         limit: int = MAX_HOLDERS, paths: Callable[[list[int]], dict[int, list[tuple[str, str]]]] | None = None,
         ) -> tuple[str, str, int, list[tuple[str, int, str, dict[str, Any]]], dict[int, list[tuple[str, str]]]] | None:
    """For the first of ``forms`` (spellings of one number) the cache knows: (that form,
    the group that answers it (:data:`GROUPS`), how many hold it in that group, the first
    ``limit`` of them as (kind, id, phone field, record), and {division id: path as
    (name, alphabet name) pairs} for the divisions they name). None: nobody. ``paths``:
    the division paths from a reader that keeps them (the gateway's, rebuilt when the cache
    changes: a fifth of a probe's time), else read here."""
    for form in forms:
        key = match_key(form, region)
        if not key:
            continue
        try:
            rows = conn.execute(_SQL, (key,)).fetchall()
        except sqlite3.OperationalError:  # a cache of an older schema, opened read-only: the service answers
            return None
        groups: dict[str, list[tuple[str, int, str]]] = {}
        for kind, rid, code in rows:
            field = FIELDS[code]
            group = "shared" if kind == "contact" and field in SHARED_FIELDS else kind
            mine = groups.setdefault(group, [])
            if not mine or mine[-1][1] != rid:  # one holder with the number in two fields counts once
                mine.append((kind, rid, field))
        found = next((g for g in GROUPS if g in groups), None)
        if found is None:
            continue
        chosen = groups[found]
        holders = _holders(conn, chosen[:limit], codec or Codec(conn))
        if not holders:
            continue
        ids = [rid for kind, rid, _, _ in holders if kind == "division"]
        for kind, _, _, record in holders:
            if kind == "user":
                ids += [d["divisionId"] for d in record.get("divisions") or () if d.get("divisionId") is not None]
        if not ids:
            return form, found, len(chosen), holders, {}
        return form, found, len(chosen), holders, paths(ids) if paths is not None else path_pairs(conn, ids)
    return None


def _holders(conn: sqlite3.Connection, wanted: list[tuple[str, int, str]],
             codec: Codec) -> list[tuple[str, int, str, dict[str, Any]]]:
    out = []
    for kind, rid, field in wanted:
        row = conn.execute(f"SELECT data FROM {_TABLES[kind]} WHERE id = ?", (rid,)).fetchone()
        if row is not None:
            out.append((kind, rid, field, codec.load(row[0])))
    return out
