"""Which numbers' caller-ID answers a sync changed: a diff of two states of the cache, record by record.

The gateway keeps every number's caller-ID reply rendered (``corpdir.gateway.precomputed``);
rendering them all again costs a minute of CPU at 100k people, while a sync usually
changes a handful of records. A number's answer is made of the phone index rows under its
key, the records they name (only the first few are read, but the count is of all of them)
and the paths of the divisions those records name (a division's path is its ancestors'
names). So the numbers a change touches are:

- every number a changed, added or removed user, contact or division holds, before and
  after (a number someone no longer holds is answered by the rest, or by nobody);
- every number held by a member of a division whose path changed: one whose own record
  changed (a rename, a move) and every division under it;
- everything, when the cache's settings changed (the region's number rules, say) or a
  division came or went (:data:`EVERYTHING`): a reorganisation, rare enough to pay a full
  rebuild for; and a cache written by a corpdir that dropped a removed division's
  ``user_divisions`` rows cannot name the people of one that comes back.

:class:`Marks` is one state, read in the same read transaction as the answers rendered from
it: per record a hash of the record as stored (Python's ``hash`` of the bytes: the marks
never leave the process that read them) and the phone index keys of its numbers. The keys
are a function of the record (and the settings), so after the first state only the
records whose hash changed have theirs read again: a pass over the records, not over the
phone index (docs/performance.md, "Gateway").
"""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Iterable, NamedTuple

from corpdir.sqlite import chunks, marks

KINDS = (("user", "users"), ("contact", "contacts"), ("division", "divisions"))
EVERYTHING = None  # what :func:`read_changes` answers when only a full rebuild will do


class Marks(NamedTuple):
    settings: bytes  # a digest of the cache's settings, other than when each resource was last synced
    hashes: dict[str, dict[int, int]]  # kind -> record id -> hash of the record as stored
    keys: dict[str, dict[int, str]]  # kind -> record id -> the phone index keys of its numbers, space-separated
    parents: dict[int, int | None]  # division id -> its parent's


def read_marks(conn: sqlite3.Connection) -> Marks:
    """The marks of the state ``conn`` reads (the caller holds one read transaction), every
    record's keys read from the phone index."""
    keys: dict[str, dict[int, str]] = {}
    for kind, _ in KINDS:
        _add_keys(keys.setdefault(kind, {}), conn.execute(f"SELECT id, key FROM {kind}_phones"))  # noqa: S608 - fixed names
    return Marks(_settings(conn), _hashes(conn), keys, dict(conn.execute("SELECT id, parent_id FROM divisions")))


def read_changes(conn: sqlite3.Connection, old: Marks) -> tuple[Marks, set[str] | None]:
    """The marks of the state ``conn`` reads, and the phone index keys whose answers may
    differ from ``old``'s state's (:data:`EVERYTHING`: build them all)."""
    settings, parents = _settings(conn), dict(conn.execute("SELECT id, parent_id FROM divisions"))
    if settings != old.settings or parents.keys() != old.parents.keys():
        return read_marks(conn), EVERYTHING
    hashes, keys = _hashes(conn), {}
    held: list[str] = []  # the changed records' keys, before and after, each record's space-separated
    changed: dict[str, set[int]] = {}
    for kind, _ in KINDS:
        before, after = old.hashes[kind], hashes[kind]
        ids = changed[kind] = {rid for rid, mark in after.items() if before.get(rid) != mark}
        ids.update(rid for rid in before if rid not in after)
        kept = keys[kind] = old.keys[kind].copy()
        held += [kept.pop(rid) for rid in ids if rid in kept]
        for chunk in chunks(list(ids)):
            _add_keys(kept, conn.execute(f"SELECT id, key FROM {kind}_phones WHERE id IN ({marks(len(chunk))})", chunk))  # noqa: S608
        held += [kept[rid] for rid in ids if rid in kept]
    new = Marks(settings, hashes, keys, parents)
    divisions = _under(changed["division"], parents)
    held += [keys["division"].get(rid, "") for rid in divisions - changed["division"]]
    held += [keys["user"].get(rid, "") for rid in members(conn, divisions) - changed["user"]]
    return new, {key for found in held for key in found.split()}


def _add_keys(held: dict[int, str], rows: Iterable[tuple[int, str]]) -> None:
    """Each record's keys as one string: in the index's order, so the same for the same keys."""
    for rid, key in rows:
        held[rid] = held[rid] + " " + key if rid in held else key


def _settings(conn: sqlite3.Connection) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    for name, value in conn.execute("SELECT key, value FROM meta WHERE key NOT LIKE 'synced_at:%' ORDER BY key"):
        digest.update(f"{name}\0{value}\0".encode())
    return digest.digest()


def _hashes(conn: sqlite3.Connection) -> dict[str, dict[int, int]]:
    return {kind: {rid: hash(data) for rid, data in conn.execute(f"SELECT id, data FROM {table}")}  # noqa: S608 - fixed names
            for kind, table in KINDS}


def _under(ids: set[int], parents: dict[int, int | None]) -> set[int]:
    """``ids`` and every division below any of them."""
    children: dict[int | None, list[int]] = {}
    for rid, parent in parents.items():
        children.setdefault(parent, []).append(rid)
    found, todo = set(ids), list(ids)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def members(conn: sqlite3.Connection, divisions: Iterable[int]) -> set[int]:
    """The users whose records name any of ``divisions``."""
    found: set[int] = set()
    for chunk in chunks(list(divisions)):
        found.update(r[0] for r in conn.execute(
            f"SELECT user_id FROM user_divisions WHERE division_id IN ({marks(len(chunk))})", chunk))
    return found


def present(conn: sqlite3.Connection, keys: Iterable[str]) -> list[str]:
    """Those of the phone index ``keys`` it holds."""
    found: list[str] = []
    for chunk in chunks(list(keys)):
        m = marks(len(chunk))
        found += [r[0] for r in conn.execute(
            f"SELECT key FROM user_phones WHERE key IN ({m}) UNION SELECT key FROM contact_phones WHERE key IN ({m})"
            f" UNION SELECT key FROM division_phones WHERE key IN ({m})", [*chunk, *chunk, *chunk])]
    return found
