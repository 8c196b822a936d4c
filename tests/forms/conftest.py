"""Forms against the real stack: the reference server in-process behind a transport that
records every request (method, path, body), so a test can prove what was sent."""

import json

import httpx
import pytest

from service_fixtures import make_server, make_service


class Recorder(httpx.ASGITransport):
    def __init__(self, app):
        super().__init__(app=app)
        self.requests: list[tuple[str, str, bytes]] = []

    async def handle_async_request(self, request):
        body = await request.aread()
        self.requests.append((request.method, request.url.path, body))
        return await super().handle_async_request(request)

    def writes(self):
        return [(m, p, json.loads(b) if b and b[:1] in b"{[" else b) for m, p, b in self.requests if m != "GET"]

    def clear(self):
        self.requests.clear()


@pytest.fixture
def server():
    return make_server()


@pytest.fixture
def recorder(server):
    return Recorder(server)


async def _service(server, recorder, key):
    svc = make_service(server, api_key=key, transport=recorder)
    await svc.sync.run()
    recorder.clear()
    return svc


@pytest.fixture
async def admin(server, recorder):
    svc = await _service(server, recorder, "demo-admin")
    yield svc
    await svc.close()


@pytest.fixture
async def reception(server, recorder):
    svc = await _service(server, recorder, "demo-reception")
    yield svc
    await svc.close()


@pytest.fixture
def app_for():
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    def build(service, **kwargs):
        kwargs.setdefault("sync_on_start", False)
        return CorpdirApp(service, state=State(), **kwargs)

    return build
