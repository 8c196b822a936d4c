"""Offline: the service cannot be reached (every request fails to connect), the cache was
filled earlier. The app starts, says it is offline, browses and searches the cache,
shows details from it, and every failure is a readable notification, never a traceback."""

from __future__ import annotations

import time

import httpx
import pytest

from corpdir.cache.store import CacheStore
from corpdir.tui.widgets.status_bar import StatusBar
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_service
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


class Unreachable(httpx.AsyncBaseTransport):
    """What a dead network looks like to httpx: every request fails to connect."""

    def __init__(self) -> None:
        self.requests: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(f"{request.method} {request.url.path}")
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


@pytest.fixture
async def offline(tmp_path):
    """A service over a cache synced yesterday, its network gone."""
    path = str(tmp_path / "cache.sqlite3")
    online = make_service(store=CacheStore(path))
    await online.sync.run()
    await online.close()
    transport = Unreachable()
    service = make_service(transport=transport, store=CacheStore(path))
    service.clock = lambda: time.time() + 86400  # a day later: the cache is stale, so the app tries to sync
    yield service, transport
    await service.close()


def collect_notifications(app) -> list[tuple[str, str, str]]:
    seen: list[tuple[str, str, str]] = []
    notify = app.notify

    def recording(message: str, *, title: str = "", severity="information", **kwargs) -> None:
        seen.append((severity, title, message))
        notify(message, title=title, severity=severity, **kwargs)

    app.notify = recording
    return seen


def readable(notes: list[tuple[str, str, str]]) -> bool:
    return bool(notes) and all("Traceback" not in m and "File \"" not in m and m.strip() for _, _, m in notes)


async def test_starts_offline_browses_searches_and_shows_details_from_the_cache(offline):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    service, transport = offline
    cached = backend_of(service).store.count_users()
    target = next(u for u in await service.people.window(None, limit=100) if u.fullnameKana)
    app = CorpdirApp(service, state=State())  # syncs on start (the cache is stale): that fails
    notes = collect_notifications(app)
    async with app.run_test(size=(140, 40)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count == cached and users.highlighted is not None)
        assert await wait_for(pilot, lambda: "offline (showing the cache)" in screen_text(app))
        assert service.online is False and transport.requests  # it did try
        assert "synced 1 d ago" in str(app.screen.query_one(StatusBar).render())
        assert await wait_for(pilot, lambda: any("Could not connect to the directory service" in m for _, _, m in notes))

        # details: the cached record, with the photo and profile said to be unavailable
        detail = app.screen.query_one(UserDetail)
        first = users.highlighted
        assert await wait_for(pilot, lambda: detail.user is not None and detail.user.userId == first.userId)
        assert await wait_for(pilot, lambda: "photo unavailable" in screen_text(app) and "Profile unavailable" in screen_text(app))
        assert first.fullname in screen_text(app)

        # search: the cache answers; the service's part fails with a warning
        await pilot.press("slash", *target.fullnameKana.split()[0])
        assert await wait_for(pilot, lambda: users.row_count > 0 and any(
            users.row(i) is not None and users.row(i).userId == target.userId for i in range(users.row_count)))
        assert await wait_for(pilot, lambda: any("showing the cache" in m for _, _, m in notes))
        await pilot.press("escape")

        # the other screens open and show the cache too
        await pilot.press("f2")
        contacts = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: contacts.row_count == backend_of(service).store.count_contacts() and contacts.highlighted)
        await pilot.press("f3")
        calls = app.screen.query_one("#calls", VirtualList)
        assert await wait_for(pilot, lambda: calls.row_count > 0 and calls.highlighted is not None)
        await pilot.press("f4")
        number = target.phoneNum or target.extensionNum
        await pilot.press(*f"{number}, 03-0000-0009", "enter")
        results = app.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.row_count == 2 and target.fullname in screen_text(app))
        await pilot.press("f1")
        await pilot.press("ctrl+s")  # a sync asked for by hand fails readably too
        await pilot.pause(0.3)
        assert await wait_for(pilot, lambda: len([n for n in notes if n[0] == "error"]) >= 2)

    assert app.return_code in (0, None)  # run_test re-raises anything the app did not handle
    assert readable(notes)
    assert all(title != "Something went wrong" for _, title, _ in notes), notes  # every failure was expected and named


async def test_narrow_offline_opens_details_full_screen(offline):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    service, _ = offline
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    notes = collect_notifications(app)
    async with app.run_test(size=(80, 24)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        name = users.highlighted.fullname
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        assert await wait_for(pilot, lambda: "photo unavailable" in screen_text(app) and name in screen_text(app))
        assert await wait_for(pilot, lambda: "offline" in str(service.online).lower() or service.online is False)
    assert not notes or readable(notes)  # (run_test re-raises anything the app did not handle)


async def test_a_key_the_client_cannot_use_is_said_plainly_and_the_cache_still_browses(tmp_path):
    """A profile whose API key holds a tab (a bad copy and paste): the client is never built,
    the status bar says offline, a notification says why (without the key), and the
    cache still answers."""
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig
    from corpdir.service.directory import DirectoryService
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp
    from service_fixtures import BASE_URL

    path = str(tmp_path / "cache.sqlite3")
    online = make_service(store=CacheStore(path))
    await online.sync.run()
    await online.close()
    bad_key = "secret\tkey"
    settings = ServiceConfig(base_url=BASE_URL, api_key=bad_key)
    service = DirectoryService(None, CacheStore(path), settings, connect=lambda: DirectoryClient(settings))
    app = CorpdirApp(service, state=State())
    notes = collect_notifications(app)
    async with app.run_test(size=(140, 40)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count == backend_of(service).store.count_users() > 0)
        assert await wait_for(pilot, lambda: "offline (showing the cache)" in screen_text(app))
        assert await wait_for(pilot, lambda: any("API key" in m for _, _, m in notes)), notes
        assert readable(notes) and not any("secret" in m for _, _, m in notes)
    await service.close()


async def test_offline_the_top_divisions_are_listed_once_each_in_their_order(tmp_path):
    """At the start the tree is filled twice from the cache (at once, and again before the
    service is asked): filled a line at a time between awaits, the two fills interleaved
    and, offline, the tree kept divisions twice and out of order (大阪 above 本社)."""
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp
    from corpdir.tui.widgets.division_tree import DivisionTree
    from service_fixtures import make_server

    server = make_server()
    admin = make_service(server, api_key="demo-admin")
    for n, city in enumerate(("大阪", "名古屋", "福岡", "札幌", "仙台", "広島", "横浜", "京都", "神戸", "金沢", "新潟", "高松")):
        await backend_of(admin).client.create_division(divisionCode=f"BR-{n}", divisionName=f"{city}支社")
    await admin.close()
    path = str(tmp_path / "cache.sqlite3")
    online = make_service(server, store=CacheStore(path))
    await online.sync.run()
    await online.close()
    service = make_service(transport=Unreachable(), store=CacheStore(path))
    expected = [d.divisionName for d in await service.divisions.children(None)]
    assert len(expected) > 10
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    async with app.run_test(size=(120, 36)) as pilot:
        tree = app.screen.query_one(DivisionTree)

        def shown() -> list[str]:
            return [node.data.divisionName for node in tree.root.children if node.data is not None]

        assert await wait_for(pilot, lambda: service.online is False and len(shown()) >= len(expected))
        await wait_for(pilot, lambda: not app.workers._workers or all(w.is_finished for w in app.workers._workers
                                                                          if w.group == "division-tree"))
        assert shown() == expected


async def test_a_damaged_cache_is_said_at_the_start_and_the_sync_fills_a_new_one(tmp_path):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    path = tmp_path / "cache.sqlite3"
    path.write_bytes(b"garbage, not SQLite " * 500)
    service = make_service(store=CacheStore(str(path)))
    app = CorpdirApp(service, state=State())  # an empty cache: the start syncs it
    notes = collect_notifications(app)
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: any("could not be read and was set aside" in m and f"{path}.damaged" in m
                                                 for _, _, m in notes))
        assert await wait_for(pilot, lambda: users.row_count > 0, tries=500)
    await service.close()
