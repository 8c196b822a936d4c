"""Caller-ID as HTTP replies: ``/cid`` (the whole body is the name), ``/cid.kv`` (Asterisk
hashcompat), ``/cid.json``, and ``/cid/NUMBER``.

The gateway's HTTP server calls :meth:`CallerId.reply` straight from its parser for these
paths (no ASGI, no routing: the HTTP stack is most of a lookup's cost); the Starlette
routes call the same method, so the app answers alike under any ASGI server. A number the
cache knows is answered on the spot; only one the service must be asked about returns an
awaitable, settled within the deadline.
"""

from __future__ import annotations

import time
from typing import Awaitable, Callable
from urllib.parse import parse_qsl

from corpdir.gateway import answers
from corpdir.gateway.http_messages import Reply
from corpdir.gateway.lookup import CallerLookup, Lookup
from corpdir.service.identify import MAX_HOLDERS, Identity

FORMATS = {"/cid": "text", "/cid.kv": "kv", "/cid.json": "json"}
TEXT = b"text/plain; charset=utf-8"
JSON = b"application/json"


def route(path: str) -> tuple[str, str] | None:
    """(format, number from the path or '') for a caller-ID path, else None."""
    if (fmt := FORMATS.get(path)) is not None:
        return fmt, ""
    if path.startswith("/cid/") and path.count("/") == 2:
        return "text", path[5:]
    return None


def query(raw: bytes) -> tuple[str, bool]:
    """(number, ascii) from a query string ('+' arrives as a space, as in any form)."""
    params = dict(parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8"))
    return params.get("number", ""), params.get("ascii", "") in ("1", "true", "yes")


class CallerId:
    def __init__(self, lookup: CallerLookup, count: Callable[[str], None] = lambda answer: None) -> None:
        """``count``: told how each answer was made (cache, service, unknown, late, withheld)."""
        self.lookup = lookup
        self.count = count

    def reply(self, fmt: str, number: str, ascii: bool,
              record_url: Callable[[Identity], str]) -> Reply | Awaitable[Reply]:
        started = time.monotonic()
        limit = 1 if fmt != "json" else MAX_HOLDERS  # text and key=value read one record
        answer, cached = self.lookup.now(number, started, limit)
        if answer is not None:
            self.count(_how(answer))
            return _reply(fmt, answer, ascii, record_url)
        return self._later(fmt, cached, ascii, record_url, started)

    async def _later(self, fmt: str, cached: Identity, ascii: bool, record_url: Callable[[Identity], str],
                     started: float) -> Reply:
        answer = await self.lookup.from_service(cached, started)
        self.count(_how(answer))
        return _reply(fmt, answer, ascii, record_url)


def _how(answer: Lookup) -> str:
    return answer.source or ("late" if answer.late else answer.identity.kind)


def _reply(fmt: str, answer: Lookup, ascii: bool, record_url: Callable[[Identity], str]) -> Reply:
    """The answer in ``fmt``, with how it was answered and how long that took here. Nobody
    (or a withheld number): 404 with an empty body for text and key=value (every PBX reads
    it as "no name"), a 200 with ``found: false`` for JSON."""
    how = _how(answer)
    headers = [(b"x-corpdir-answer", how.encode()), (b"server-timing", b"lookup;dur=%.3f" % (answer.seconds * 1000)),
               (b"cache-control", b"no-store")]
    if fmt == "json":
        return Reply(200, [(b"content-type", JSON), *headers], answers.as_json(answer, ascii, record_url).encode())
    if not answer.found:
        return Reply(404, headers)
    body = answers.text(answer, ascii) if fmt == "text" else answers.key_values(answer, ascii)
    return Reply(200, [(b"content-type", TEXT), *headers], body.encode())
