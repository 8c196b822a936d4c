"""Kiosk mode (`corpdir --read-only`): nothing that writes is offered, run or sent."""

from __future__ import annotations

import re

import httpx
import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from corpdir.client import DirectoryClient, ReadOnly
from corpdir.spec import OPERATIONS
from corpdir.tui.readonly import action_writes, writes
from service_fixtures import make_server, make_service
from corpdir.service.backend import backend_of

# what a write action would be called (forms, bulk edits, exports, uploads)
WRITE_WORDS = re.compile(r"(?:^|[\s_.])(create|edit|delete|remove|new|add|save|export|import|bulk|upload|put|screenshot|suspend)(?:$|[\s_])")


class Counting(httpx.AsyncBaseTransport):
    """The reference server in-process, counting requests; the first ``fail`` N1 requests
    break off after sending (ReadError), as an ambiguous failure would."""

    def __init__(self, fail_n1: int = 0) -> None:
        self.inner = httpx.ASGITransport(app=make_server())
        self.requests: list[httpx.Request] = []
        self.fail_n1 = fail_n1

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if request.url.path.endswith("/phone-numbers/identify") and self.fail_n1:
            self.fail_n1 -= 1
            raise httpx.ReadError("connection reset after the request was sent", request=request)
        return await self.inner.handle_async_request(request)


def client(transport: httpx.AsyncBaseTransport, **kw) -> DirectoryClient:
    return DirectoryClient(base_url="http://127.0.0.1/v1", api_key="demo-reception", transport=transport, **kw)


@pytest.mark.parametrize("code", sorted(c for c, op in OPERATIONS.items() if op.is_write))
async def test_read_only_client_refuses_every_write_without_a_request(code):
    transport = Counting()
    async with client(transport, read_only=True) as c:
        with pytest.raises(ReadOnly) as caught:
            await c._call(code, path={p: 1 for p in OPERATIONS[code].path_params}, body={}, upload=b"x")
    assert transport.requests == []
    assert caught.value.operation == code and "read-only" in str(caught.value)


async def test_read_only_client_still_reads_and_identifies_numbers():
    transport = Counting()
    async with client(transport, read_only=True) as c:
        page = await c.list_users()
        assert page.items
        result = await c.identify_numbers(["0312345678"])  # N1: a POST that only reads
        assert isinstance(result.items, list)
        with pytest.raises(ReadOnly):
            await c.create_contact(familyName="Mallory", companyName="Nope")
    assert [r.method for r in transport.requests] == ["GET", "POST"]


async def test_n1_is_retried_like_a_read_after_an_ambiguous_failure():
    from corpdir.client import RetryPolicy

    transport = Counting(fail_n1=2)
    async with client(transport, retry=RetryPolicy(initial_delay=0.001, max_delay=0.002)) as c:
        result = await c.identify_numbers(["0312345678"])
    assert isinstance(result.items, list)
    assert len(transport.requests) == 3  # two broken off, the third answered
    assert OPERATIONS["N1"].reads_only and not OPERATIONS["N1"].is_write


def test_settings_carry_read_only(monkeypatch, tmp_path):
    from corpdir.config import load_settings

    config = tmp_path / "kiosk.toml"
    config.write_text("[ui]\nread_only = true\n", encoding="utf-8")
    monkeypatch.setenv("CORPDIR_CONFIG", str(config))
    settings = load_settings()
    assert settings.ui.read_only is True and settings.service.read_only is False


@pytest.mark.parametrize(("argv", "config"), [(["--read-only", "--no-sync"], ""), (["--no-sync"], "[ui]\nread_only = true\n")])
def test_flag_or_config_builds_a_read_only_app_and_client(monkeypatch, tmp_path, argv, config):
    from corpdir import cli
    from corpdir.tui.app import CorpdirApp

    monkeypatch.setenv("CORPDIR_DEMO_SIZE", "60")
    if config:
        (tmp_path / "c.toml").write_text(config, encoding="utf-8")
        monkeypatch.setenv("CORPDIR_CONFIG", str(tmp_path / "c.toml"))
    seen = {}

    def fake_run(self, *a, **k):
        seen["app"] = self

    monkeypatch.setattr(CorpdirApp, "run", fake_run)
    assert cli.main(argv) == 0
    app = seen["app"]
    assert app.read_only is True
    assert backend_of(app.service).client.read_only is True
    assert "read-only" in app.sub_title


class WriteScreen(Screen):
    """A screen as the forms engineer writes them: one write action, marked."""

    BINDINGS = [Binding("n", "new_contact", "New contact"), Binding("v", "view", "View")]

    def __init__(self) -> None:
        super().__init__()
        self.ran: list[str] = []

    def compose(self):
        yield Static("write screen")

    @writes
    def action_new_contact(self) -> None:
        self.ran.append("new")

    def action_view(self) -> None:
        self.ran.append("view")


@pytest.fixture
async def service():
    svc = make_service()
    await svc.sync.run()
    yield svc
    await svc.close()


def _app(service, read_only: bool):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    return CorpdirApp(service, state=State(), sync_on_start=False, read_only=read_only)


async def test_kiosk_offers_no_write_binding_anywhere(service, tmp_path):
    from corpdir.tui.app import SCREENS_BY_KEY

    app = _app(service, True)
    async with app.run_test(size=(120, 36)) as pilot:
        for mode, *_ in SCREENS_BY_KEY:
            await app.run_action(f"switch_mode('{mode}')")
            await pilot.pause()
            for key, active in app.screen.active_bindings.items():
                action = active.binding.action.split("(")[0].split(".")[-1]
                if not active.enabled:
                    continue
                assert not action_writes(active.node, action), (mode, key, action)
                if isinstance(active.node, (Screen, App)):  # not an Input's own delete_left
                    assert not WRITE_WORDS.search(action), (mode, key, action)
            titles = [c.title for c in app.get_system_commands(app.screen)]
            assert "Screenshot" not in titles
            assert not any(WRITE_WORDS.search(t.lower()) for t in titles), titles
        # neither a screenshot (a file) nor a suspend (the shell) is possible
        await app.run_action("screenshot")
        await app.run_action("suspend_process")
        assert app.deliver_screenshot(path=str(tmp_path)) is None
        assert list(tmp_path.glob("*.svg")) == []


@pytest.mark.parametrize("read_only", [True, False])
async def test_a_marked_write_action_is_refused_only_in_kiosk(service, read_only):
    app = _app(service, read_only)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = WriteScreen()
        await app.push_screen(screen)
        await pilot.press("n", "v")
        await pilot.pause()
        assert screen.ran == (["view"] if read_only else ["new", "view"])
        titles = [c.title for c in app.get_system_commands(screen)]
        assert ("New contact" in titles) is (not read_only) and "View" in titles
