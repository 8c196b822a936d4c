"""Caller-ID from the cache, kept free of pydantic and httpx.

`corpdir lookup` answers from here directly: a PBX pipe pays only for sqlite3 and
phonenumbers at start-up. :meth:`CacheStore.lookup_number` wraps the same query into
spec models for the UI, so there is one implementation of "who has this number".

The answer is the one N1 gives (the reference server's rule, server/storage/identify.py):
a user's number, else a contact's own number, else a division's number, else a contact's
company or division number (SHARED_NUMBER), so `corpdir lookup` says the same whether the
cache or the service answered. Two things only the cache knows are added on both paths
(:func:`complete` for an N1 item): divisions by their path ('本社 › 営業本部 › 1課'), and
the number as the directory writes it. A user's companyName is null on both: it would be
the tenant's own name, which N1 gives and the cache cannot know.
"""

from __future__ import annotations

import json
import sqlite3

from corpdir.cache.blobs import Codec
from corpdir.cache.division_paths import path_names
from corpdir.cache.fields import FIELDS
from corpdir.division_path import division_path
from corpdir.phone import DEFAULT_REGION, RegionRules, match_key, region_rules, use_region_rules

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any

_SQL = (  # who holds a number: index rows only; the one record the answer names is read after
    "SELECT 'user', id, field FROM user_phones WHERE key = ?1"
    " UNION ALL SELECT 'contact', id, field FROM contact_phones WHERE key = ?1"
    " UNION ALL SELECT 'division', id, field FROM division_phones WHERE key = ?1 ORDER BY 1 DESC, 2"
)
_TABLES = {"user": "users", "contact": "contacts", "division": "divisions"}
SHARED_FIELDS = ("companyDelegatedPhoneNum", "divisionDelegatedPhoneNum")  # many people answer these


def remember_region_rules(conn: sqlite3.Connection, region: str) -> None:
    """Keep the region's number rules in the cache (from phonenumbers, once; again when
    the cache's rules lack one this corpdir knows, e.g. ``shortest``: without it every
    extension `corpdir lookup` is asked would import phonenumbers, ~20 ms)."""
    key = f"phone_rules:{region}"
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    if row is None or not set(RegionRules._fields) <= set(json.loads(row[0])):
        rules = region_rules(region)
        if rules is not None:
            with conn:
                conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, json.dumps(rules.as_dict())))


def prime_region_rules(conn: sqlite3.Connection, region: str) -> None:
    """Let the phone fast path use the rules the cache kept: no phonenumbers import."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"phone_rules:{region}",)).fetchone()
    if row is not None:
        use_region_rules(region, json.loads(row[0]))


def identify(conn: sqlite3.Connection, number: str, region: str = DEFAULT_REGION, codec: Codec | None = None) -> list[dict[str, Any]]:
    """The identification item (spec 2.9 shape, as a dict) N1 would give for ``number``, in
    a list ([]: nobody the cache knows)."""
    key = match_key(number, region)
    if not key:
        return []
    try:
        rows = conn.execute(_SQL, (key,)).fetchall()
    except sqlite3.OperationalError:  # a cache of an older schema, opened read-only: the service answers
        return []
    users, own, divisions, shared = [], [], [], []
    for kind, rid, code in rows:
        field = FIELDS[code]
        target = (users if kind == "user" else divisions if kind == "division"
                  else shared if field in SHARED_FIELDS else own)
        target.append((kind, rid, field))
    chosen = next((group[0] for group in (users, own, divisions, shared) if group), None)
    if chosen is None:
        return []
    kind, rid, field = chosen
    row = conn.execute(f"SELECT data FROM {_TABLES[kind]} WHERE id = ?", (rid,)).fetchone()
    if row is None:
        return []
    data = (codec or Codec(conn)).load(row[0])
    stored = data.get(field) or number
    if users:
        return [_user_item(conn, rid, stored, data)]
    if own:
        return [_item(stored, data.get("fullname"), "CONTACT", data.get("companyName"),
                      [data["divisionName"]] if data.get("divisionName") else [], contact_id=rid)]
    if divisions:
        path = path_names(conn, [rid])[rid]
        return [_item(stored, path[-1], "SHARED_NUMBER", None, [division_path(path)])]
    company, division = data.get("companyName"), data.get("divisionName")
    by_division = bool(division and match_key(data.get("divisionDelegatedPhoneNum") or "", region) == key)
    return [_item(stored, (division if by_division else company) or company, "SHARED_NUMBER", company,
                  [division] if by_division else [])]


def complete(conn: sqlite3.Connection, item: dict[str, Any], region: str = DEFAULT_REGION, codec: Codec | None = None) -> dict[str, Any]:
    """An N1 item as the cache would have answered it: the cache's own item when it knows
    the same holder, else N1's with a user's divisions by path (when the user is cached)
    and no companyName for a user (see the module docstring)."""
    codec = codec or Codec(conn)
    known = identify(conn, item.get("phoneNum") or "", region, codec)
    if known and all(known[0].get(k) == item.get(k) for k in ("phoneNumContactType", "userId", "contactId", "displayName")):
        return known[0]
    if item.get("phoneNumContactType") != "USER":
        return item
    row = conn.execute("SELECT data FROM users WHERE id = ?", (item.get("userId"),)).fetchone()
    paths = _user_paths(conn, codec.load(row[0])) if row else item.get("divisionNames") or []
    return {**item, "companyName": None, "divisionNames": paths}


def _user_paths(conn: sqlite3.Connection, data: dict[str, Any]) -> list[str]:
    refs = [d for d in data.get("divisions") or () if d.get("divisionId") is not None]
    paths = path_names(conn, [d["divisionId"] for d in refs])
    return [division_path(paths.get(d["divisionId"]) or [d.get("divisionName")]) for d in refs
            if paths.get(d["divisionId"]) or d.get("divisionName")]


def _user_item(conn: sqlite3.Connection, rid: int, number: str, data: dict[str, Any]) -> dict[str, Any]:
    return _item(number, data.get("fullname"), "USER", None, _user_paths(conn, data), user_id=rid)


def _item(number: str, name: str | None, kind: str, company: str | None, divisions: list[str], *,
          user_id: int | None = None, contact_id: int | None = None) -> dict[str, Any]:
    return {"phoneNum": number, "displayName": name, "companyName": company, "divisionNames": divisions,
            "phoneNumContactType": kind, "userId": user_id, "contactId": contact_id}
