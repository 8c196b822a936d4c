"""Caller-ID from the cache, kept free of pydantic and httpx.

`corpdir lookup` answers from here directly: a PBX pipe pays only for sqlite3 and
phonenumbers at start-up. :meth:`CacheStore.lookup_number` wraps the same query into
spec models for the UI, so there is one implementation of "who has this number".
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from corpdir.phone import DEFAULT_REGION, RegionRules, match_key, region_rules, use_region_rules

_SQL = (
    "SELECT p.kind, p.id, p.number, COALESCE(u.data, c.data) FROM phones p"
    " LEFT JOIN users u ON p.kind = 'user' AND u.id = p.id"
    " LEFT JOIN contacts c ON p.kind = 'contact' AND c.id = p.id"
    " WHERE p.key = ? ORDER BY p.kind DESC, p.id"
)


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


def identify(conn: sqlite3.Connection, number: str, region: str = DEFAULT_REGION) -> list[dict[str, Any]]:
    """Identification items (spec 2.9 shape, as dicts) for ``number``: users first, then contacts."""
    key = match_key(number, region)
    if not key:
        return []
    items: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for kind, rid, stored, blob in conn.execute(_SQL, (key,)):
        if blob is None or (kind, rid) in seen:
            continue
        seen.add((kind, rid))
        items.append(_item(kind, rid, stored, json.loads(blob)))
    return items


def _item(kind: str, rid: int, number: str, data: dict[str, Any]) -> dict[str, Any]:
    if kind == "user":
        return {"phoneNum": number, "displayName": data.get("fullname"), "companyName": None,
                "divisionNames": [d["divisionName"] for d in data.get("divisions") or () if d.get("divisionName")],
                "phoneNumContactType": "USER", "userId": rid, "contactId": None}
    return {"phoneNum": number, "displayName": data.get("fullname"), "companyName": data.get("companyName"),
            "divisionNames": [data["divisionName"]] if data.get("divisionName") else [],
            "phoneNumContactType": "CONTACT", "userId": None, "contactId": rid}
