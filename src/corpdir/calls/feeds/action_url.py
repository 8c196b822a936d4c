"""A desk phone's action URLs: Yealink and Snom phones request a URL on incoming,
established and terminated calls. corpdir listens on a configured local address and
takes only ``/<token>/<event>?remote=$remote&call_id=$call_id&active_user=$active_user``
(``display_name=$display_remote`` too, if the phone sends it).

Answers: a wrong token, or a path that is not ``/<token>/<event>``, is 403 and shows
nothing; the right token with an unknown event or without ``remote``/``call_id`` is 400
and counted as a skipped event (the phone is the desk's own, misconfigured: the status bar
and the log say so); a method other than GET or POST is 405.

The phones put the call's values into the URL as they are, not percent-encoded: a
caller's name arrives as raw UTF-8, with spaces (``display_name=山田 太郎``), a number
with a raw ``+``. Both HTTP parsers uvicorn offers (h11, httptools) answer such a request
line 400 before any application sees it (measured: docs/calls.md), so this listener reads
the request line itself: the method is its first word, the version its last, the target
everything between; percent-escapes are decoded, ``+`` stays a plus.

Events: Yealink ``incoming``/``established``/``terminated``, Snom
``incoming``/``connected``/``disconnected``; ``missed`` ends a call that was not answered."""

from __future__ import annotations

import asyncio
import hmac
import socket
from typing import TYPE_CHECKING
from urllib.parse import unquote

from corpdir.calls.events import CallEvent, CallState, number_from_uri

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink
    from corpdir.config import ActionUrlFeedConfig

EVENTS = {"incoming": CallState.RINGING, "ringing": CallState.RINGING, "established": CallState.ANSWERED,
          "connected": CallState.ANSWERED, "answered": CallState.ANSWERED, "terminated": CallState.ENDED,
          "disconnected": CallState.ENDED, "missed": CallState.ENDED, "ended": CallState.ENDED}
HEAD_MAX = 8192  # a request's line and headers; a phone's are a few hundred bytes
HEAD_SECONDS = 10.0  # a connection that sends no whole head in this time is closed
REASONS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 405: "Method Not Allowed"}


def query_values(query: str) -> dict[str, str]:
    """``a=1&b=山田 太郎`` as the phone wrote it: split on ``&`` and ``=``, escapes decoded
    as UTF-8 (a stray byte becomes U+FFFD), ``+`` kept (it is a number's plus)."""
    values: dict[str, str] = {}
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        values.setdefault(unquote(name, errors="replace"), unquote(value, errors="replace"))
    return values


def answer(request_line: bytes, token: str, link: FeedLink) -> int:
    """The status for one request line; a well-formed event is emitted on ``link``."""
    method, _, rest = request_line.strip().partition(b" ")
    target, _, version = rest.rpartition(b" ")
    if not version.startswith(b"HTTP/1.") or not target.startswith(b"/"):
        return 400
    if method not in (b"GET", b"POST"):
        return 405
    text = target.decode("utf-8", errors="replace")
    path, _, query = text.partition("?")
    parts = [unquote(part, errors="replace") for part in path.split("/")]
    if len(parts) != 3 or not hmac.compare_digest(parts[1].encode(), token.encode()):
        return 403
    event = parts[2].lower()
    state = EVENTS.get(event)
    values = query_values(query)
    remote = number_from_uri(values.get("remote", ""))
    call_id = values.get("call_id", "") or remote
    if state is None or not call_id:
        link.skip(f"/{event}?{query}", "unknown event or no call_id/remote")  # not the token: the log is no secret's place
        return 400
    link.emit(CallEvent("", call_id, state, remote, values.get("display_name", ""), values.get("active_user", ""),
                        answered=False if event == "missed" else None))
    return 200


class ActionUrlFeed:
    def __init__(self, config: ActionUrlFeedConfig) -> None:
        self.config = config
        self.name = config.name
        self.records = config.records

    async def run(self, link: FeedLink) -> None:
        host, port = self.config.listen.rsplit(":", 1)
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host.strip("[]"), int(port)))
            server = await asyncio.start_server(lambda r, w: self._serve(r, w, link), sock=sock, limit=HEAD_MAX)
        except BaseException:
            sock.close()
            raise
        link.connected()
        async with server:
            await server.serve_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: FeedLink) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_SECONDS)
            status = answer(head.partition(b"\r\n")[0], self.config.token.get_secret_value(), link)
            body = f"{REASONS[status].lower()}\n".encode()
            writer.write(f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                         f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
            await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            pass  # a head too long, too slow or cut: closed without an answer
        finally:
            writer.close()
