"""One SQLite connection, its lock, transactions and schema migration.

The app runs handlers in worker threads (never on the event loop, which the TUI shares
when it embeds the server), so the single connection is opened with
``check_same_thread=False`` and every use holds ``lock``. A write is one ``BEGIN
IMMEDIATE ... COMMIT`` (:func:`corpdir.sqlite.transaction`, shared with the cache); any
exception rolls it back, which is how "nothing is written
on an error" holds even for checks made half-way through a handler.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, ContextManager, Iterator

from corpdir.server.storage.schema import MIGRATIONS, SCHEMA_VERSION
from corpdir.sqlite import transaction


class Database:
    def __init__(self, path: str) -> None:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        self.conn.execute("PRAGMA foreign_keys = ON")
        if path != ":memory:":
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
        self._migrate()

    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this server ({SCHEMA_VERSION})")
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self.write() as conn:
                for statement in _statements(MIGRATIONS[target]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")

    def write(self) -> ContextManager[sqlite3.Connection]:
        """A transaction; nested calls join the outer one."""
        return transaction(self.conn, self.lock)

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            yield self.conn

    def close(self) -> None:
        with self.lock:
            self.conn.close()


def _statements(script: str) -> list[str]:
    """Split a DDL script into statements (executescript would commit mid-transaction)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        if line.strip().startswith("--"):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return [s for s in out if s]


def _json_default(value: Any) -> Any:
    """Dates inside nested records (profile histories) are stored as ISO 8601 text."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_json_default)


def dumps(value: Any) -> str:
    return _ENCODER.encode(value)


def loads(text: str | None) -> Any:
    return json.loads(text) if text else {}


def iso_ms(ts: float) -> str:
    """Epoch seconds as ISO 8601 UTC with milliseconds ('2024-05-01T09:00:00.123Z')."""
    ms = round(ts * 1000)
    dt = datetime.fromtimestamp(ms // 1000, tz=timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def iso_dt(value: datetime) -> str:
    """An aware datetime in the stored form (UTC, milliseconds), so text order is time order."""
    if value.tzinfo is not None and value.microsecond % 1000 == 0 and value.year >= 1000:
        # the same text as iso_ms, without the float round trip (bulk loads make 700k of these)
        return value.astimezone(timezone.utc).isoformat(timespec="milliseconds")[:-6] + "Z"
    return iso_ms(value.timestamp())
