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
import logging
import os
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, ContextManager, Iterator

from corpdir.server.storage.schema import MIGRATIONS, SCHEMA_VERSION
from corpdir.sqlite import transaction


log = logging.getLogger("corpdir.server")

PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600


def _private_files(path: Path) -> None:
    """The data directory 0700 and the database 0600 when this server makes them: they
    hold personal data, password hashes and key hashes. SQLite gives the -wal and -shm
    files the database file's mode. An existing one readable by others is left as it is
    (its owner may have reasons) but named in a warning."""
    directory = path.parent
    if not directory.exists():
        directory.mkdir(mode=PRIVATE_DIR, parents=True)
        directory.chmod(PRIVATE_DIR)  # mkdir's mode is masked by the umask; 0700 needs no mask
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    for item in (directory, *(p for p in directory.glob(path.name + "*") if p.is_file())):
        mode = item.stat().st_mode & 0o777
        if mode & 0o077:
            log.warning("%s is readable by others (mode %03o): it holds personal data and password hashes; "
                        "chmod %03o it", item, mode, PRIVATE_DIR if item.is_dir() else PRIVATE_FILE)


class Database:
    def __init__(self, path: str) -> None:
        if path != ":memory:":
            _private_files(Path(path))
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
    """An aware datetime in the stored form (UTC, milliseconds, four-digit year), so text
    order is time order. Sub-millisecond digits are dropped (not rounded: rounding
    9999-12-31T23:59:59.9999Z would leave the calendar)."""
    if value.tzinfo is None:
        return iso_ms(value.timestamp())
    utc = value.astimezone(timezone.utc)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000, tzinfo=None).isoformat(timespec="milliseconds") + "Z"
