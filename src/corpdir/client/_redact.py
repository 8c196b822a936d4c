"""Keeping the API key out of what the user or a log reads.

A proxy's or server's error page may quote the request's headers (``Authorization: Bearer
<key>``), and httpx logs the answer's status line, which a hostile or careless server can
fill with the same. Every text taken from an answer goes through :func:`redact` before it
becomes an exception's message; :func:`hide_in_logs` adds the key to a filter on the HTTP
libraries' loggers, which costs nothing while those loggers are off.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

REDACTED = "[redacted]"
LIBRARY_LOGGERS = ("httpx", "httpcore.http11", "httpcore.http2", "httpcore.connection", "httpcore.proxy")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every occurrence of each secret replaced by ``[redacted]``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    return text


class _RedactingFilter(logging.Filter):
    def __init__(self) -> None:
        super().__init__("corpdir-redact")
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message, self.secrets)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


_FILTER = _RedactingFilter()


def hide_in_logs(secrets: Iterable[str]) -> None:
    """From now on, the HTTP libraries' log lines show ``[redacted]`` for each secret."""
    _FILTER.secrets.update(s for s in secrets if s)
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
