"""Shared fixtures: a real app (in-memory SQLite) driven over httpx's ASGI transport,
a movable clock, and API keys for an admin, a receptionist and a user without API use."""

from __future__ import annotations

import io
from typing import Any, AsyncIterator, Callable, Iterator

import httpx
import pytest
from PIL import Image

from corpdir.server.app import create_app
from corpdir.server.settings import RateLimitSettings, ServerSettings
from tests.server.served import Served

ADMIN_KEY = "admin-key"


class FakeClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def jpeg(width: int = 400, height: int = 300, color: str = "navy") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="JPEG")
    return out.getvalue()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (10, 10), "red").save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_app(clock: FakeClock) -> Callable[..., Any]:
    def make(**overrides: Any) -> Any:
        settings = dict(bootstrap_key=ADMIN_KEY, clock=clock, rate_limit=RateLimitSettings(enabled=False))
        settings.update(overrides)
        return create_app(ServerSettings(**settings))

    return make


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app()


def client_for(app: Any, key: str | None = ADMIN_KEY, **kw: Any) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    headers.update(kw.pop("headers", {}))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test", headers=headers, **kw)


@pytest.fixture
async def api(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(app) as client:
        yield client


async def make_user(api: httpx.AsyncClient, login: str, **fields: Any) -> dict[str, Any]:
    r = await api.post("/users", json={"loginId": login, "fullname": fields.pop("fullname", login), **fields})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
async def keys(app: Any, api: httpx.AsyncClient) -> dict[str, str]:
    """Keys of three callers: admin (ADMIN_COMPANY), reception (no admin role), noapi."""
    storage = app.state.storage
    reception = await make_user(api, "reception", fullname="受付 花子", paapiAvailable=True)
    noapi = await make_user(api, "noapi", fullname="No API", paapiAvailable=False)
    return {
        "admin": ADMIN_KEY,
        "reception": storage.create_api_key(reception["userId"], "reception-key"),
        "noapi": storage.create_api_key(noapi["userId"], "noapi-key"),
        "reception_id": reception["userId"],
    }


@pytest.fixture
async def reception(app: Any, keys: dict[str, Any]) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(app, keys["reception"]) as client:
        yield client


def error_of(response: httpx.Response) -> dict[str, Any]:
    """The spec's error object, checked for shape."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"status", "message", "details"}, body
    return body["error"]


@pytest.fixture
def serve() -> Iterator[Callable[..., Served]]:
    """Starts `corpdir server` processes with the given arguments; stops them after the test."""
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(Served(*args))
        return started[-1]

    yield start
    for served in started:
        served.stop()
