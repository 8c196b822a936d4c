"""The one way corpdir writes to SQLite: a whole transaction or nothing.

The cache (``cache/store.py``) and the reference server (``server/storage/db.py``) each
keep one connection shared by threads under a lock, opened with ``isolation_level=None``
so that transactions are explicit. Both write the same way, so both use this; it sits
with the other shared modules because neither package may import the other. Both also
ask for many ids at once, in ``IN (...)`` chunks under SQLite's parameter limit
(:func:`chunks`, :func:`marks`).
"""

from __future__ import annotations

from contextlib import contextmanager

TYPE_CHECKING = False  # not typing's: `corpdir lookup` reads divisions in chunks (docs/performance.md, "`corpdir lookup`")
if TYPE_CHECKING:
    import sqlite3
    from typing import ContextManager, Iterator, Sequence, TypeVar

    T = TypeVar("T")

CHUNK = 500  # values per ``IN (...)``: well under SQLite's bound-parameter limit


def chunks(values: Sequence[T]) -> Iterator[Sequence[T]]:
    """``values`` in slices of at most :data:`CHUNK`, one ``IN (...)`` query each."""
    for start in range(0, len(values), CHUNK):
        yield values[start:start + CHUNK]


def marks(n: int) -> str:
    """``?,?,...``: the placeholders of an ``IN (...)`` of ``n`` values."""
    return ",".join("?" * n)


@contextmanager
def transaction(conn: sqlite3.Connection, lock: ContextManager[object]) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE ... COMMIT`` holding ``lock``; any exception (a failed check half-way
    included) rolls it back, so a killed or failed write leaves the database as it was. A
    call inside another joins the outer transaction."""
    with lock:
        if conn.in_transaction:
            yield conn
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
