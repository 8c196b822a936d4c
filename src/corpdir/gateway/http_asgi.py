"""The gateway's ASGI side: one request given to the app (its ``receive`` and ``send``, the
reply streamed as the app sends it), and the app's lifespan at start and stop.

Apart from :mod:`.httpserver` because only the requests the gateway cannot answer at once
come here (desk-phone directories, the 3CX template, a record's page); the caller-ID path
never touches this module, and the connection's own parsing and ordering read better
without the ASGI protocol in between.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from corpdir.gateway.access import redacted
from corpdir.gateway.http_messages import Reply, Request, head

if TYPE_CHECKING:
    from corpdir.gateway.httpserver import Connection

log = logging.getLogger("corpdir.gateway")


class Exchange:
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
                log.exception("gateway: %s %s failed", request.method, redacted(request.path))
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


class Lifespan:
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
