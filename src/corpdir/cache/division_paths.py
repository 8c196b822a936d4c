"""Each cached division's path from the top (names, top first), for naming it unambiguously.

Plain sqlite3 (no pydantic): `corpdir lookup` reads paths on its fast path too. A
division whose parent is not cached gets the part of its path the cache knows.
"""

from __future__ import annotations


from corpdir.sqlite import chunks, marks

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import sqlite3
    from typing import Iterable, Iterator

# Walks up through parents; ``seen`` (',1,2,') stops a parent loop in bad data at its first repeat.
_SQL = (
    "WITH RECURSIVE up(start, id, name, alphabet, depth, seen) AS ("
    " SELECT id, parent_id, name, {alphabet}, 0, ',' || id || ',' FROM divisions WHERE id IN ({marks})"
    " UNION ALL SELECT up.start, d.parent_id, d.name, {alphabet_d}, up.depth + 1, up.seen || d.id || ','"
    " FROM up JOIN divisions d ON d.id = up.id WHERE instr(up.seen, ',' || d.id || ',') = 0)"
    " SELECT start, name, alphabet FROM up ORDER BY start, depth DESC"
)
_ALPHABET = "json_extract({t}data, '$.divisionNameAlphabet')"


def _walk(conn: sqlite3.Connection, ids: Iterable[int], alphabet: bool) -> Iterator[tuple[int, str, str | None]]:
    wanted = list(dict.fromkeys(ids))
    columns = ({"alphabet": _ALPHABET.format(t=""), "alphabet_d": _ALPHABET.format(t="d.")} if alphabet
               else {"alphabet": "NULL", "alphabet_d": "NULL"})
    for chunk in chunks(wanted):
        yield from conn.execute(_SQL.format(marks=marks(len(chunk)), **columns), chunk)


def path_names(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, list[str]]:
    """``{divisionId: [top name, ..., its own name]}`` for the ``ids`` the cache holds."""
    paths: dict[int, list[str]] = {}
    for division_id, name, _ in _walk(conn, ids, alphabet=False):
        paths.setdefault(division_id, []).append(name or "")
    return paths


def path_pairs(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, list[tuple[str, str]]]:
    """As :func:`path_names`, each name with the division's alphabet name ('' where none):
    a caller-ID answer in ASCII spells the path with them."""
    paths: dict[int, list[tuple[str, str]]] = {}
    for division_id, name, alphabet in _walk(conn, ids, alphabet=True):
        paths.setdefault(division_id, []).append((name or "", alphabet or ""))
    return paths
