"""The one way corpdir writes to SQLite: a whole transaction or nothing.

The cache (``cache/store.py``) and the reference server (``server/storage/db.py``) each
keep one connection shared by threads under a lock, opened with ``isolation_level=None``
so that transactions are explicit. Both write the same way, so both use this; it sits
with the other shared modules because neither package may import the other. Both also
ask for many ids at once, in ``IN (...)`` chunks under SQLite's parameter limit
(:func:`chunks`, :func:`marks`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: `corpdir lookup` reads divisions in chunks (docs/performance.md, "`corpdir lookup`")
if TYPE_CHECKING:
    import sqlite3
    from types import TracebackType
    from typing import ContextManager, Iterator, Sequence, TypeVar

    T = TypeVar("T")

CHUNK = 500  # values per ``IN (...)``: well under SQLite's bound-parameter limit


def damaged(exc: BaseException) -> bool:
    """``exc`` says a database file is not SQLite (a crash, a disk that filled up, another
    file in its place): for a command, which may not import sqlite3, to say so and what to do."""
    import sqlite3

    return isinstance(exc, sqlite3.DatabaseError)


def chunks(values: Sequence[T]) -> Iterator[Sequence[T]]:
    """``values`` in slices of at most :data:`CHUNK`, one ``IN (...)`` query each."""
    for start in range(0, len(values), CHUNK):
        yield values[start:start + CHUNK]


def marks(n: int) -> str:
    """``?,?,...``: the placeholders of an ``IN (...)`` of ``n`` values."""
    return ",".join("?" * n)


class transaction:  # noqa: N801 - used as the function it replaces: `with transaction(conn, lock) as c:`
    """``BEGIN IMMEDIATE ... COMMIT`` holding ``lock``; any exception (a failed check half-way
    included) rolls it back, so a killed or failed write leaves the database as it was. A
    call inside another joins the outer transaction. A class, not ``contextlib.contextmanager``:
    `corpdir lookup` imports this module for :func:`chunks`, and contextlib is ~3 M
    instructions of its start (docs/performance.md)."""

    def __init__(self, conn: sqlite3.Connection, lock: ContextManager[object]) -> None:
        self.conn, self.lock, self.outer = conn, lock, False

    def __enter__(self) -> sqlite3.Connection:
        self.lock.__enter__()
        try:
            self.outer = self.conn.in_transaction
            if not self.outer:
                self.conn.execute("BEGIN IMMEDIATE")
        except BaseException as exc:
            self.lock.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return self.conn

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        try:
            if not self.outer:
                self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.lock.__exit__(kind, exc, tb)
