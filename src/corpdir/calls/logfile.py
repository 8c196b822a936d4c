"""The desk's log: one file per profile in the state dir, ``<state>/logs/<profile>.log``.

What the call feeds and the recorder log (``corpdir.calls``: a record refused and dropped,
a feed refused or dropped, a call of unknown outcome) would otherwise reach nobody, since
the TUI owns the terminal. Rotated at 1 MiB, three old files kept; every file 0600 (it
names callers' numbers); the API key is replaced by ``[redacted]`` wherever a line or a
traceback would carry it. Message text (a note taken for a call) is never logged: only
what the service stores under the record's id is shown anywhere, by the service.
"""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

MAX_BYTES = 1 << 20
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_path(state: Path, profile_cache: Path) -> Path:
    """The profile's log (named like its cache file: one per service and key)."""
    return state / "logs" / f"{profile_cache.stem}.log"


class PrivateLog(RotatingFileHandler):
    """A rotating file whose every generation is created 0600 and whose lines never
    hold one of ``secrets``."""

    def __init__(self, path: Path, secrets: tuple[str, ...] = ()) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.secrets = tuple(s for s in secrets if s)
        super().__init__(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
        self.setFormatter(logging.Formatter(FORMAT))

    def _open(self):  # noqa: ANN202 - logging's hook
        os.close(os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        os.chmod(self.baseFilename, 0o600)  # a file left by an older corpdir, or another umask
        return super()._open()

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        for secret in self.secrets:
            line = line.replace(secret, "[redacted]")
        return line


def open_log(path: Path, secrets: tuple[str, ...] = (), level: int = logging.INFO) -> PrivateLog:
    """corpdir's loggers write to ``path`` from now on (the handler, to close at exit)."""
    handler = PrivateLog(path, secrets)
    handler.setLevel(level)
    logger = logging.getLogger("corpdir")
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > level:
        logger.setLevel(level)
    return handler
