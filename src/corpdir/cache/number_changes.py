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
never leave the process that read them) and the keys of its numbers, as the caller keys
them (the gateway's keys; interned, so each key string is kept once with the map's).
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from typing import Callable, Iterable, NamedTuple

from corpdir.sqlite import chunks, marks

KINDS = (("user", "users"), ("contact", "contacts"), ("division", "divisions"))
EVERYTHING = None  # what :func:`changed_keys` answers when only a full rebuild will do
Mark = tuple  # (hash of the stored record, key of each of its numbers...): one flat tuple a record


class Marks(NamedTuple):
    settings: bytes  # a digest of the cache's settings, other than when each resource was last synced
    records: dict[str, dict[int, Mark]]  # kind -> record id -> Mark
    parents: dict[int, int | None]  # division id -> its parent's


def read_marks(conn: sqlite3.Connection, key: Callable[[str], str]) -> Marks:
    """The marks of the state ``conn`` reads (the caller holds one read transaction);
    ``key``: a phone index key as the caller keys numbers."""
    settings = hashlib.blake2b(digest_size=16)
    for name, value in conn.execute("SELECT key, value FROM meta WHERE key NOT LIKE 'synced_at:%' ORDER BY key"):
        settings.update(f"{name}\0{value}\0".encode())
    records: dict[str, dict[int, Mark]] = {}
    keyed: dict[str, str] = {}
    for kind, table in KINDS:
        held: dict[int, list[str]] = {}
        for rid, index_key in conn.execute(f"SELECT id, key FROM {kind}_phones"):  # noqa: S608 - fixed names
            if (k := keyed.get(index_key)) is None:
                k = keyed[index_key] = sys.intern(key(index_key))
            held.setdefault(rid, []).append(k)
        records[kind] = {rid: (hash(data), *sorted(set(held.get(rid, ()))))
                         for rid, data in conn.execute(f"SELECT id, data FROM {table}")}  # noqa: S608 - fixed names
    parents = dict(conn.execute("SELECT id, parent_id FROM divisions"))
    return Marks(settings.digest(), records, parents)


def changed_keys(conn: sqlite3.Connection, old: Marks, new: Marks) -> set[str] | None:
    """The keys (as :func:`read_marks` keyed them) whose answers may differ between ``old``
    and ``new``, ``conn`` reading ``new``'s state; :data:`EVERYTHING` for a full rebuild."""
    if old.settings != new.settings or old.parents.keys() != new.parents.keys():
        return EVERYTHING
    keys: set[str] = set()
    changed: dict[str, set[int]] = {}
    for kind, _ in KINDS:
        before, after = old.records[kind], new.records[kind]
        ids = changed[kind] = {rid for rid, mark in after.items() if before.get(rid) != mark}
        ids.update(rid for rid in before if rid not in after)
        for rid in ids:
            keys.update(before.get(rid, (0,))[1:], after.get(rid, (0,))[1:])
    divisions = _under(changed["division"], new.parents)
    for rid in divisions - changed["division"]:
        keys.update(new.records["division"][rid][1:])
    users = new.records["user"]
    for rid in members(conn, divisions) - changed["user"]:
        keys.update(users.get(rid, (0,))[1:])
    return keys


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
