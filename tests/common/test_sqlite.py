"""corpdir.sqlite.transaction: the all-or-nothing write the cache and the server share."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from corpdir.sqlite import transaction


@pytest.fixture
def conn(tmp_path):
    c = sqlite3.connect(tmp_path / "t.db", isolation_level=None, check_same_thread=False)
    c.execute("CREATE TABLE t (x INTEGER)")
    yield c
    c.close()


def count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM t").fetchone()[0]


def test_a_failure_half_way_leaves_nothing_written(conn):
    lock = threading.RLock()
    with pytest.raises(ValueError):
        with transaction(conn, lock) as c:
            c.execute("INSERT INTO t VALUES (1)")
            raise ValueError("a check failed after the first row")
    assert count(conn) == 0 and not conn.in_transaction


def test_a_nested_write_joins_the_outer_one_and_fails_with_it(conn):
    lock = threading.RLock()
    with transaction(conn, lock) as c:
        c.execute("INSERT INTO t VALUES (1)")
        with transaction(conn, lock) as inner:
            inner.execute("INSERT INTO t VALUES (2)")
    assert count(conn) == 2
    with pytest.raises(RuntimeError):
        with transaction(conn, lock) as c:
            c.execute("INSERT INTO t VALUES (3)")
            with transaction(conn, lock) as inner:
                inner.execute("INSERT INTO t VALUES (4)")
            raise RuntimeError("after the inner block")
    assert count(conn) == 2
