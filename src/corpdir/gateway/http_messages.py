"""The gateway's HTTP messages: a parsed request, a reply, and the bytes of a reply's head.

Apart from :mod:`.httpserver` (the connection: parsing, order, flow control) because these
are what the gateway's routes see and return (:mod:`.callerid`, :mod:`.app`), and the
head is written the same way for a fast answer and for the ASGI app's (:mod:`.http_asgi`).
Calls into this module are plain module functions: no layer is added per request.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from email.utils import formatdate
from http import HTTPStatus
from typing import Awaitable, Callable

Headers = list[tuple[bytes, bytes]]
_STATUS = {s.value: f"HTTP/1.1 {s.value} {s.phrase}\r\n".encode() for s in HTTPStatus}


@dataclass(slots=True)
class Request:
    method: str
    path: str  # percent-decoded
    raw_path: bytes
    query: bytes
    headers: Headers  # names lower-cased
    client: tuple[str, int] | None
    server: tuple[str, int] | None
    keep_alive: bool
    version: str
    body: bytes = b""
    refused: int = 0  # not parsed: answered with this status, then the connection closes

    def header(self, name: bytes) -> bytes:
        return next((v for k, v in self.headers if k == name), b"")


@dataclass(slots=True)
class Reply:
    status: int
    headers: Headers = field(default_factory=list)  # without content-length, connection, date
    body: bytes = b""


# A request line whose target holds raw bytes above 0x7F: what Yealink and Snom phones send
# when the user types kana into a search (RFC 3986 wants them percent-encoded; llhttp refuses them).
_RAW_TARGET = re.compile(rb"(?m)^([A-Z]+ )([^ \r\n]*[\x80-\xff][^ \r\n]*)( HTTP/1\.[01]\r?)$")
_HIGH = re.compile(rb"[\x80-\xff]")


def encode_raw_targets(data: bytes) -> bytes:
    """``data`` with the raw bytes in request targets percent-encoded, so the parser takes
    ``?q=青木`` as it takes ``?q=%E9%9D%92%E6%9C%A8``; called only for data that is not ASCII."""
    return _RAW_TARGET.sub(lambda m: m[1] + _HIGH.sub(lambda b: b"%%%02X" % b[0][0], m[2]) + m[3], data)


Fast = Callable[[Request], "Reply | Awaitable[Reply] | None"]


class _Clock:
    """The Date header, formatted once a second, not once a request."""

    def __init__(self) -> None:
        self.second, self.value = -1, b""

    def date(self) -> bytes:
        now = int(time.time())
        if now != self.second:
            self.second, self.value = now, formatdate(now, usegmt=True).encode()
        return self.value


_clock = _Clock()


def head(status: int, headers: Headers, length: int | None, keep_alive: bool) -> bytes:
    """The status line and headers; ``length`` None: the body is chunked."""
    return b"".join((status_line(status), b"date: ", _clock.date(), b"\r\n", after_date(headers, length, keep_alive)))


def status_line(status: int) -> bytes:
    return _STATUS.get(status) or f"HTTP/1.1 {status} Status\r\n".encode()


def after_date(headers: Headers, length: int | None, keep_alive: bool) -> bytes:
    """The head after its Date line, to the blank line: what a precomputed reply keeps
    (:mod:`.precomputed`), the Date being the one part that changes."""
    lines = []
    for name, value in headers:
        lines += [name, b": ", value, b"\r\n"]
    lines.append(b"transfer-encoding: chunked\r\n" if length is None else b"content-length: %d\r\n" % length)
    if not keep_alive:
        lines.append(b"connection: close\r\n")
    lines.append(b"\r\n")
    return b"".join(lines)


date = _clock.date  # the Date header's value now, formatted once a second
