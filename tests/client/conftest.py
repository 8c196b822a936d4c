from __future__ import annotations

from typing import Any, Callable

import httpx
import pytest

from corpdir.client import DirectoryClient, RetryPolicy
from service_fixtures import FakeClock

from .faults import FaultTransport
from .server import Recorder, make_server, seed_users

KEY = "sk-test"
BASE = "http://127.0.0.1/v1"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(clock: FakeClock) -> Recorder:
    """The reference server (in memory, on the fake clock) with 250 users besides the admin."""
    recorder, storage = make_server(KEY, clock)
    seed_users(storage, 250)
    recorder.storage = storage
    return recorder


@pytest.fixture
async def make_client(clock: FakeClock) -> Callable[..., DirectoryClient]:
    """Build clients on the fake clock, closed at the end of the test."""
    clients: list[DirectoryClient] = []

    def make(transport: httpx.AsyncBaseTransport, **kw: Any) -> DirectoryClient:
        kw.setdefault("base_url", BASE)
        kw.setdefault("api_key", KEY)
        kw.setdefault("retry", RetryPolicy(max_retries=4))
        client = DirectoryClient(transport=transport, clock=clock, sleep=clock.sleep, **kw)
        clients.append(client)
        return client

    yield make
    for c in clients:
        await c.aclose()


@pytest.fixture
def faulty(server: Recorder) -> FaultTransport:
    return FaultTransport(httpx.ASGITransport(app=server))
