"""A real stack for tests: the reference server in-process on a small demo tenant, the
real client through httpx's ASGI transport, and a real cache (in memory)."""

from __future__ import annotations

import functools
from typing import Any

import httpx

from corpdir.cache.store import CacheStore
from corpdir.client import DirectoryClient
from corpdir.config import ServiceConfig
from corpdir.server.app import create_app
from corpdir.server.settings import RateLimitSettings, ServerSettings
from corpdir.service.directory import DirectoryService

BASE_URL = "http://corpdir.test/v1"
SMALL_SIZE = 60


@functools.lru_cache(maxsize=4)
def demo_tenant(size: int = SMALL_SIZE, seed: int = 1) -> Any:
    """Generated once per test process (deterministic), loaded into a fresh server each time."""
    from corpdir.server.demo import generate_tenant

    return generate_tenant(size=size, seed=seed)


def make_server(tenant: Any | None = None, **settings: Any) -> Any:
    settings.setdefault("rate_limit", RateLimitSettings(enabled=False))
    return create_app(ServerSettings(data=None, demo=tenant if tenant is not None else demo_tenant(), **settings))


class FakeClock:
    """Time that moves only when someone sleeps: no test waits for real."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        import asyncio

        self.slept.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


def make_service(app: Any | None = None, *, api_key: str = "demo-reception", transport: httpx.AsyncBaseTransport | None = None,
                 store: CacheStore | None = None, **client_options: Any) -> DirectoryService:
    """``client_options`` go to DirectoryClient (e.g. clock=, sleep= of a FakeClock)."""
    app = app if app is not None else make_server()
    settings = ServiceConfig(base_url=BASE_URL, api_key=api_key, max_retries=1, retry_initial_delay=0.01, retry_max_delay=0.02)
    client = DirectoryClient(settings, transport=transport or httpx.ASGITransport(app=app), **client_options)
    return DirectoryService(client, store or CacheStore(":memory:"), settings)


class LiveServer:
    """The reference server on 127.0.0.1 (uvicorn in a thread), for tests of whole processes."""

    def __init__(self, app: Any, port: int = 0) -> None:
        """On ``port`` (0: a free one); a given port is one a test kept for a restart."""
        import socket
        import threading

        import uvicorn

        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        import time

        for _ in range(500):
            if self.server.started:
                break
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


async def refused_bulk(path, kind: str = "destinations") -> list[str]:  # noqa: ANN001 - a Path
    """`corpdir bulk KIND PATH` as demo-admin on a fresh demo server, expected to refuse the
    file (exit 1): the lines it printed about it."""
    import io

    from corpdir.commands.bulk import run_bulk

    service = make_service(make_server(), api_key="demo-admin")
    try:
        out, err = io.StringIO(), io.StringIO()
        assert await run_bulk(service, kind, str(path), out, err) == 1, out.getvalue()
    finally:
        await service.close()
    return err.getvalue().splitlines()


async def service_division_paths(client: DirectoryClient) -> dict[int, str]:
    """Each division's path as the service's own division records give it (D1, parents
    walked up): the oracle for what a screen or export should call a division."""
    divisions = {d.divisionId: d async for d in client.iter_divisions()}
    paths = {}
    for division_id in divisions:
        names, current = [], divisions.get(division_id)
        while current is not None:
            names.insert(0, current.divisionName)
            current = divisions.get(current.parentDivisionId) if current.parentDivisionId else None
        paths[division_id] = " › ".join(names)
    return paths
