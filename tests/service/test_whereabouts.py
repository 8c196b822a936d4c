"""Whereabouts the desk sets reach the service as U11 requests holding exactly the
changes, at most one request a minute, kept across a restart until the service has them."""

from __future__ import annotations

import json

import httpx
import pytest

from corpdir.service.whereabouts import Whereabouts
from service_fixtures import FakeClock, make_server, make_service


class Recording(httpx.AsyncBaseTransport):
    """The real ASGI transport, noting each U11 body the server receives."""

    def __init__(self, app) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.bodies: list[dict] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/destinations"):
            self.bodies.append(json.loads(await request.aread()))
        return await self.inner.handle_async_request(request)


@pytest.fixture
def server():
    app = make_server()
    yield app
    app.state.storage.close()


async def login_ids(count: int) -> list[tuple[int, str]]:
    """People of the demo tenant (a service that may read them)."""
    reader = make_service(api_key="demo-admin")
    await reader.sync.run()
    return [(u.userId, u.loginId) for u in await reader.people.window(None, limit=count)]


async def test_the_u11_holds_exactly_the_changes_once_a_minute(server, tmp_path):
    transport = Recording(server)
    service = make_service(server, api_key="demo-admin", transport=transport)
    clock = FakeClock()
    places = Whereabouts(service.people, tmp_path / "w.json", send_every=60, clock=clock)
    (a_id, a), (b_id, b), (c_id, c) = (await login_ids(7))[4:7]

    places.set(a, 1, "外出", "15:00戻り")
    places.set(b, 2, "会議中")
    places.set(a, 1, "外出", "16:00戻り")  # changed again before the send: only the last goes
    assert places.due_in() == 0 and await places.send() == 2
    assert transport.bodies == [{"destinations": [
        {"loginId": a, "destinationId": 1, "destinationName": "外出 16:00戻り"},
        {"loginId": b, "destinationId": 2, "destinationName": "会議中"}]}]
    assert server.state.storage.get_destination(a_id) == {"destinationId": 1, "destinationName": "外出 16:00戻り"}
    assert places.of(a).shown == "外出 16:00戻り" and places.unsent == []

    places.set(c, 4, "休暇")
    assert places.due_in() == 60 and places.of(c).shown == "休暇 (not sent yet)"
    clock.now += 60
    assert await places.send() == 1 and await places.send() == 0  # nothing left: no request
    assert transport.bodies[1:] == [{"destinations": [{"loginId": c, "destinationId": 4, "destinationName": "休暇"}]}]
    assert (tmp_path / "w.json").stat().st_mode & 0o777 == 0o600

    again = Whereabouts(service.people, tmp_path / "w.json")  # the next run shows what the desk set
    assert again.of(a).shown == "外出 16:00戻り" and again.of(c).sent


async def test_a_refused_change_stays_unsent_with_the_reason(server, tmp_path):
    service = make_service(server, api_key="demo-noapi")
    places = Whereabouts(service.people, tmp_path / "w.json")
    [(_, login)] = (await login_ids(5))[4:5]
    places.set(login, 1, "外出")
    assert await places.send() == 0
    assert places.of(login).shown == "外出 (not sent yet)" and places.problem
    assert Whereabouts(service.people, tmp_path / "w.json").unsent  # kept across a restart
