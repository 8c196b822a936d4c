"""A real gateway for the tests: the reference server (demo tenant) in-process, a service
with a file cache synced from it, and the gateway served by its own HTTP server (as
`corpdir gateway` serves it) on 127.0.0.1, all on one event loop in a thread of their
own; the tests talk to it over real HTTP."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any, Coroutine, TypeVar

import httpx
import pytest

from corpdir.cache.store import CacheStore
from corpdir.gateway.app import build_app
from corpdir.gateway.httpserver import HttpServer
from corpdir.config import GatewayConfig
from corpdir.server.settings import RateLimitSettings
from service_fixtures import make_server, make_service

T = TypeVar("T")
TOKEN = "t0ken-for-tests"
USER, PASSWORD = "freepbx", "s3cret:with colon"


def until(check: Any, tries: int = 3000) -> Any:
    """Poll until ``check()`` is truthy (what the gateway does next, on its own loop), and return it."""
    for _ in range(tries):
        if found := check():
            return found
        time.sleep(0.01)
    raise AssertionError("condition never held")


class Slow(httpx.AsyncBaseTransport):
    """The upstream service made slow: every request waits ``delay`` seconds first."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.delay = 0.0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.delay:
            await asyncio.sleep(self.delay)
        return await self.inner.handle_async_request(request)


class RunningGateway:
    def __init__(self, tmp_path: Any, rate_limit: RateLimitSettings | None = None, idle_seconds: float = 5.0,
                 **settings: Any) -> None:
        """``rate_limit``: the reference server's token bucket (default: off); ``idle_seconds``:
        how long the HTTP server keeps a connection with no request under way; ``settings``: the gateway's."""
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server_app = make_server(**({"rate_limit": rate_limit} if rate_limit else {}))
        self.upstream = Slow(httpx.ASGITransport(app=self.server_app))
        self.service = make_service(self.server_app, transport=self.upstream, store=CacheStore(tmp_path / "cache.sqlite3"))
        self.admin = make_service(self.server_app, api_key="demo-admin")
        self.call(self.service.sync.run())
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.base = f"{self.origin}/t/{TOKEN}"
        options = {"token": TOKEN, "user": USER, "password": PASSWORD, "sync_every": 0, **settings}
        self.app = build_app(self.service, GatewayConfig(**options))
        self.server = HttpServer(self.app, self.app.fast, idle_seconds)
        self.call(self.server.start(sock=sock))

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(url, timeout=30, **kwargs)

    def stop(self) -> None:
        self.call(self.server.stop())
        self.call(self.admin.close())
        self.call(self.service.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def gateway(tmp_path):
    running = RunningGateway(tmp_path)
    yield running
    running.stop()


@pytest.fixture
def make_gateway(tmp_path):
    made: list[RunningGateway] = []

    def make(**settings: Any) -> RunningGateway:
        made.append(RunningGateway(tmp_path / str(len(made)), **settings))
        return made[-1]

    yield make
    for running in made:
        running.stop()
