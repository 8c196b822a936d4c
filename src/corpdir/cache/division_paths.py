"""Each cached division's path from the top (names, top first), for naming it unambiguously.

Plain sqlite3 (no pydantic): `corpdir lookup` reads paths on its fast path too. A
division whose parent is not cached gets the part of its path the cache knows.
"""

from __future__ import annotations

import sqlite3

from corpdir.sqlite import chunks, marks

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Iterable

# Walks up through parents; ``seen`` (',1,2,') stops a parent loop in bad data at its first repeat.
_SQL = (
    "WITH RECURSIVE up(start, id, name, depth, seen) AS ("
    " SELECT id, parent_id, name, 0, ',' || id || ',' FROM divisions WHERE id IN ({marks})"
    " UNION ALL SELECT up.start, d.parent_id, d.name, up.depth + 1, up.seen || d.id || ','"
    " FROM up JOIN divisions d ON d.id = up.id WHERE instr(up.seen, ',' || d.id || ',') = 0)"
    " SELECT start, name FROM up ORDER BY start, depth DESC"
)


def path_names(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, list[str]]:
    """``{divisionId: [top name, ..., its own name]}`` for the ``ids`` the cache holds."""
    wanted = list(dict.fromkeys(ids))
    paths: dict[int, list[str]] = {}
    for chunk in chunks(wanted):
        for division_id, name in conn.execute(_SQL.format(marks=marks(len(chunk))), chunk):
            paths.setdefault(division_id, []).append(name or "")
    return paths
