"""HTTP/1.1 for the gateway: asyncio's Protocol and httptools (the parser uvicorn uses), one
process, one event loop.

Why not uvicorn: a PBX's caller-ID lookup is a tiny GET whose answer the cache gives in a
tenth of a millisecond, so the HTTP stack is most of the cost. Measured on this machine
(docs/performance.md, "Gateway"), uvicorn with httptools and uvloop plus Starlette's
routing spent several times the lookup itself per request. Here a request the gateway can
answer at once (``fast``: caller-ID) is answered from the parser's callback, with no ASGI
scope, no routing, no middleware; every other request (desk-phone directories, the 3CX
template, a record's page) goes to the gateway's ASGI app as it would under uvicorn.

What a server owes its clients is kept: keep-alive, pipelined requests answered in order,
``Connection: close`` and HTTP/1.0 honoured, streamed bodies chunked, the transport's flow
control obeyed, an idle or half-sent connection closed after ``IDLE_SECONDS``, malformed
requests answered 400 and oversized ones 413/431 (all with empty bodies: a PBX shows a
body as the caller's name), and the ASGI lifespan run at start and stop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from email.utils import formatdate
from http import HTTPStatus
from typing import Any, Awaitable, Callable
from urllib.parse import unquote

import httptools

log = logging.getLogger("corpdir.gateway")
IDLE_SECONDS = 5.0  # a connection with no request under way is closed after this
MAX_HEAD = 16 * 1024  # request line and headers
MAX_BODY = 64 * 1024  # the gateway's routes take no body; a small one is read and ignored
MAX_QUEUED = 32  # pipelined requests read ahead of their answers before reading pauses
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
    lines = [_STATUS.get(status) or f"HTTP/1.1 {status} Status\r\n".encode(), b"date: ", _clock.date(), b"\r\n"]
    for name, value in headers:
        lines += [name, b": ", value, b"\r\n"]
    lines.append(b"transfer-encoding: chunked\r\n" if length is None else b"content-length: %d\r\n" % length)
    if not keep_alive:
        lines.append(b"connection: close\r\n")
    lines.append(b"\r\n")
    return b"".join(lines)


class Connection(asyncio.Protocol):
    """One client connection: parses requests, answers them in the order they came."""

    def __init__(self, server: HttpServer) -> None:
        self.server = server
        self.loop = asyncio.get_running_loop()
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.client: tuple[str, int] | None = None
        self.local: tuple[str, int] | None = None
        self.queue: deque[Request] = deque()
        self.busy = False  # an answer is being made (fast awaitable or the ASGI app)
        self.closed = asyncio.Event()
        self.writable = asyncio.Event()
        self.writable.set()
        self.reading = True
        self.idle: asyncio.TimerHandle | None = None
        self._url = b""
        self._headers: Headers = []
        self._body: list[bytes] = []
        self._size = 0
        self._too_large = 0  # the status for a request found too large while parsing

    # -- the connection ------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no asyncio.Transport subclass
        self.client = _address(transport.get_extra_info("peername"))
        self.local = _address(transport.get_extra_info("sockname"))
        self.server.connections.add(self)
        self._wait_idle()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        self.closed.set()
        self.writable.set()
        if self.idle is not None:
            self.idle.cancel()

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade):
            # a callback's exception reaches here wrapped by the parser: the status it set
            self._fail(self._too_large or 400)

    def _fail(self, status: int) -> None:
        """A request that cannot be parsed or is too large: answered in turn, then closed."""
        self.queue.append(Request("", "", b"", b"", [], self.client, self.local, False, "1.1", refused=status))
        self._pause_reading()
        self._next()

    def _wait_idle(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self.idle = self.loop.call_later(self.server.idle_seconds, self._close_idle)

    def _close_idle(self) -> None:
        if not self.busy and not self.queue and self.transport is not None:
            self.transport.close()

    def _pause_reading(self) -> None:
        if self.reading and self.transport is not None:
            self.reading = False
            self.transport.pause_reading()

    # -- httptools callbacks ---------------------------------------------------------------
    def on_message_begin(self) -> None:
        self._url, self._headers, self._body, self._size = b"", [], [], 0

    def on_url(self, url: bytes) -> None:
        self._url += url
        self._grow(len(url), MAX_HEAD, 414)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers.append((name.lower(), value))
        self._grow(len(name) + len(value), MAX_HEAD, 431)

    def on_body(self, body: bytes) -> None:
        self._body.append(body)
        self._grow(len(body), MAX_HEAD + MAX_BODY, 413)

    def _grow(self, n: int, limit: int, status: int) -> None:
        self._size += n
        if self._size > limit:
            self._too_large = status
            raise ValueError(f"request over {limit} bytes")

    def on_message_complete(self) -> None:
        url = httptools.parse_url(self._url)
        raw_path = url.path or b"/"
        self.queue.append(Request(
            self.parser.get_method().decode("ascii", "replace"), unquote(raw_path.decode("latin-1")), raw_path,
            url.query or b"", self._headers, self.client, self.local, self.parser.should_keep_alive(),
            self.parser.get_http_version(), b"".join(self._body)))
        if len(self.queue) >= MAX_QUEUED:
            self._pause_reading()
        if self.idle is not None:
            self.idle.cancel()
            self.idle = None
        self._next()

    # -- answering ----------------------------------------------------------------------------
    def _next(self) -> None:
        """Answer queued requests in order; an answer that must wait holds the ones after it."""
        while self.queue and not self.busy and self.transport is not None and not self.transport.is_closing():
            request = self.queue.popleft()
            if request.refused:
                self.write(Reply(request.refused), False)
                return
            answer = self.server.fast(request) if request.method == "GET" else None
            if isinstance(answer, Reply):
                self.write(answer, request.keep_alive)
                continue
            self.busy = True
            task = self.loop.create_task(self._answer(request, answer))
            self.server.tasks.add(task)
            task.add_done_callback(self.server.tasks.discard)
        if not self.queue and not self.busy:
            if self.transport is not None and not self.reading and not self.transport.is_closing():
                self.reading = True
                self.transport.resume_reading()
            if self.server.stopping and self.transport is not None:
                self.transport.close()
            else:
                self._wait_idle()

    async def _answer(self, request: Request, pending: Awaitable[Reply] | None) -> None:
        try:
            if pending is not None:
                self.write(await pending, request.keep_alive)
            else:
                await _Exchange(self, request).run()
        except Exception:  # noqa: BLE001 - one request's failure must not stop the server
            log.exception("gateway: %s %s failed", request.method, request.path)
            if self.transport is not None:
                self.transport.close()
        finally:
            self.busy = False
        self._next()

    def write(self, reply: Reply, keep_alive: bool) -> None:
        assert self.transport is not None
        keep_alive = keep_alive and not self.server.stopping
        self.transport.write(head(reply.status, reply.headers, len(reply.body), keep_alive) + reply.body)
        if not keep_alive:
            self.transport.close()


class _Exchange:
    """One request given to the ASGI app: its receive and send."""

    def __init__(self, connection: Connection, request: Request) -> None:
        self.connection = connection
        self.request = request
        self.received = False
        self.started: dict[str, Any] | None = None
        self.head_sent = False
        self.chunked = False
        self.done = False

    async def run(self) -> None:
        request, connection = self.request, self.connection
        scope = {
            "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": request.version,
            "method": request.method, "scheme": "http", "path": request.path, "raw_path": request.raw_path,
            "query_string": request.query, "root_path": "", "headers": request.headers,
            "client": request.client, "server": request.server, "state": dict(connection.server.state),
        }
        try:
            await connection.server.app(scope, self.receive, self.send)
        except Exception:
            if self.started is None:
                log.exception("gateway: %s %s failed", request.method, request.path)
                connection.write(Reply(500), False)
                return
            raise
        if not self.done:
            if self.started is None:
                connection.write(Reply(500), False)
            elif connection.transport is not None:
                connection.transport.close()  # a body left unfinished: the client must not wait for the rest

    async def receive(self) -> dict[str, Any]:
        if not self.received:
            self.received = True
            return {"type": "http.request", "body": self.request.body, "more_body": False}
        await self.connection.closed.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        transport = self.connection.transport
        if transport is None or transport.is_closing():
            return
        if message["type"] == "http.response.start":
            self.started = message
            return
        if message["type"] != "http.response.body" or self.started is None or self.done:
            return
        body: bytes = message.get("body", b"")
        more = bool(message.get("more_body", False))
        keep_alive = self.request.keep_alive and not self.connection.server.stopping
        if not self.head_sent:
            self.head_sent = True
            headers = [(k.lower(), v) for k, v in self.started.get("headers", [])]
            length = next((int(v) for k, v in headers if k == b"content-length"), None)
            headers = [(k, v) for k, v in headers if k not in (b"content-length", b"transfer-encoding", b"connection")]
            if length is None and not more:
                length = len(body)
            self.chunked = length is None
            transport.write(head(self.started["status"], headers, length, keep_alive))
        if self.request.method != "HEAD" and body:
            transport.write(b"%x\r\n%b\r\n" % (len(body), body) if self.chunked else body)
        if not more:
            if self.chunked and self.request.method != "HEAD":
                transport.write(b"0\r\n\r\n")
            self.done = True
            if not keep_alive:
                transport.close()
        await self.connection.writable.wait()


def _address(value: Any) -> tuple[str, int] | None:
    return (str(value[0]), int(value[1])) if isinstance(value, tuple) and len(value) >= 2 else None


class HttpServer:
    """The gateway's listening socket, its connections, and the app's lifespan."""

    def __init__(self, app: Any, fast: Fast, idle_seconds: float = IDLE_SECONDS) -> None:
        self.app = app
        self.fast = fast
        self.idle_seconds = idle_seconds
        self.connections: set[Connection] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.state: dict[str, Any] = {}
        self.stopping = False
        self._server: asyncio.AbstractServer | None = None
        self._lifespan: _Lifespan | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0, *, sock: Any = None) -> tuple[str, int]:
        """Run the app's startup, then listen; returns the address listened on."""
        self._lifespan = _Lifespan(self.app, self.state)
        await self._lifespan.startup()
        loop = asyncio.get_running_loop()
        if sock is not None:
            self._server = await loop.create_server(lambda: Connection(self), sock=sock, backlog=1024)
        else:
            self._server = await loop.create_server(lambda: Connection(self), host, port, backlog=1024)
        return _address(self._server.sockets[0].getsockname()) or (host, port)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop listening, let answers under way finish (at most ``grace`` s), run shutdown."""
        self.stopping = True
        if self._server is not None:
            self._server.close()
        for connection in list(self.connections):
            if not connection.busy and not connection.queue and connection.transport is not None:
                connection.transport.close()
        if self.tasks:
            _, late = await asyncio.wait(set(self.tasks), timeout=grace)
            for task in late:
                task.cancel()
        for connection in list(self.connections):
            if connection.transport is not None:
                connection.transport.close()
        if self._lifespan is not None:
            await self._lifespan.shutdown()


class _Lifespan:
    """The ASGI lifespan protocol: the app's startup before the first request, shutdown after the last."""

    def __init__(self, app: Any, state: dict[str, Any]) -> None:
        self.app = app
        self.state = state
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def startup(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": self.state}
        self.task = asyncio.get_running_loop().create_task(self.app(scope, self.inbox.get, self.outbox.put))
        await self._step("startup")

    async def shutdown(self) -> None:
        if self.task is not None and not self.task.done():
            await self._step("shutdown")

    async def _step(self, phase: str) -> None:
        assert self.task is not None
        await self.inbox.put({"type": f"lifespan.{phase}"})
        reply = asyncio.ensure_future(self.outbox.get())
        await asyncio.wait({reply, self.task}, return_when=asyncio.FIRST_COMPLETED)
        if not reply.done():
            reply.cancel()
            self.task.result()  # the app raised: let it be seen
            raise RuntimeError(f"the app ended during lifespan {phase}")
        message = reply.result()
        if message["type"] == f"lifespan.{phase}.failed":
            raise RuntimeError(f"lifespan {phase} failed: {message.get('message', '')}")


def run(app: Any, fast: Fast, host: str, port: int) -> None:
    """Serve until SIGINT or SIGTERM, on uvloop when it is installed."""
    import gc
    import signal
    import sys

    try:
        import uvloop
        factory: Any = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - uvloop is declared, but asyncio's own loop works
        factory = None

    async def serve() -> None:
        server = HttpServer(app, fast)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await server.start(host, port)
        # What start-up loaded (the app, pykakasi's dictionaries: ~330k objects) is never
        # scanned by the collector again: one full collection of it took 200-270 ms, a
        # caller-ID lookup's p99 of its own.
        gc.freeze()
        # A whole directory is rendered on threads: with Python's 5 ms switch interval a
        # lookup waited up to that long for the GIL, again and again (p99 50 ms at 8
        # clients during a 190k-entry render); 1 ms gives the event loop its turn sooner.
        sys.setswitchinterval(0.001)
        try:
            await stop.wait()
        finally:
            await server.stop()

    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(serve())
