"""Messages say what happened: a search that finds no one says so, the
first sync says "syncing" until the rows are there (not "0 people"), and a connection
that failed is not titled as a refusal of the service."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from textual.widgets import Input

from corpdir.state import State
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_server, make_service
from tui.test_offline import Unreachable
from tui_helpers import Notifications, screen_text, wait_for
from corpdir.service.backend import backend_of


class HeldBack(httpx.ASGITransport):
    """The reference server, whose answers wait until the test lets them through."""

    def __init__(self, app) -> None:
        super().__init__(app=app)
        self.go = asyncio.Event()
        self.asked = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.asked += 1
        await self.go.wait()
        return await super().handle_async_request(request)


def app_on(service, **kwargs):
    from corpdir.tui.app import CorpdirApp

    return CorpdirApp(service, state=State(), **kwargs)


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
async def test_a_search_with_no_hits_says_so_and_an_empty_division_says_no_one_is_there(make_app, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        app.screen.query_one("#search", Input).value = "xyzzy"
        assert await wait_for(pilot, lambda: "No one matches “xyzzy”." in screen_text(app)), screen_text(app)
        assert users.row_count == 0 and "No one here yet." not in screen_text(app)
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: users.row_count > 0)
        await pilot.press("f")
        assert await wait_for(pilot, lambda: app.screen.query("#filter-employeeNum"))
        app.screen.query_one("#filter-employeeNum", Input).value = "0000000"
        assert await wait_for(pilot, lambda: "No one matches these filters." in screen_text(app)), screen_text(app)
        assert users.row_count == 0

        await pilot.press("f2")
        contacts = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: contacts.highlighted is not None)
        app.screen.query_one("#search", Input).value = "xyzzy"
        assert await wait_for(pilot, lambda: "No contact matches “xyzzy”." in screen_text(app)), screen_text(app)
        assert contacts.row_count == 0


async def test_a_directory_with_no_one_yet_says_so():
    """An empty cache, no sync asked for: the one case for "No one here yet."."""
    service = make_service()
    app = app_on(service, sync_on_start=False)
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: "0 people" in screen_text(app))
        assert "No one here yet." in screen_text(app) and users.row_count == 0
    await service.close()


async def test_the_first_sync_says_syncing_until_the_rows_are_there():
    transport = HeldBack(make_server())
    service = make_service(transport=transport)  # an empty cache: nothing synced yet
    app = app_on(service)  # syncs on start, as a fresh install does
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: transport.asked > 0)  # the sync is waiting for its first answer
        text = screen_text(app)
        assert "Everyone · syncing…" in text and "Syncing… the list fills when it is done." in text, text
        assert "0 people" not in text and "No one here yet." not in text
        transport.go.set()
        assert await wait_for(pilot, lambda: users.row_count == backend_of(service).store.count_users() > 0, tries=500)
        assert await wait_for(pilot, lambda: f"Everyone · {users.row_count} people" in screen_text(app))
        assert "syncing…" not in screen_text(app)
        tree = app.screen.query_one(DivisionTree)  # the tree's counts follow the people the sync brought
        company = tree.root.children[0]
        count = await service.divisions.member_count(company.data.divisionId)
        assert count and await wait_for(pilot, lambda: str(tree.root.children[0].label).endswith(f"({count})"))
    await service.close()


async def test_a_connection_failure_is_not_titled_a_refusal_and_the_empty_list_says_why():
    transport = Unreachable()
    service = make_service(transport=transport)  # an empty cache and no network
    notes = Notifications()
    app = app_on(service)
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        assert await wait_for(pilot, lambda: any(n.severity == "error" for n in notes.shown))
        failure = next(n for n in notes.shown if n.severity == "error")
        assert failure.title == "Could not reach the service" and "connect" in failure.message.lower()
        assert await wait_for(pilot, lambda: "Offline, and nothing cached here." in screen_text(app)), screen_text(app)
        assert "syncing…" not in screen_text(app)
    assert all(n.title != "The service said no" for n in notes.shown)
    await service.close()


def test_each_kind_of_failure_has_its_own_title():
    from corpdir.service.errors import PermissionDenied, ReadOnly, ServerError, TransportError
    from corpdir.tui.app import failure_title

    assert failure_title(ServerError("boom", http_status=500)) == "The service failed"
    assert failure_title(ReadOnly("U3", "update_user")) == "Not done"
    assert failure_title(PermissionDenied("no", http_status=403)) == "The service said no"
    assert failure_title(TransportError("refused")) == "Could not reach the service"


@pytest.mark.parametrize("embedded", [True, False], ids=["embedded-demo", "remote"])
async def test_the_embedded_demo_shows_no_link_to_a_port_nothing_listens_on(embedded):
    """The embedded demo is reached in-process: its users' contactDetailsUrl
    (http://127.0.0.1:8765/users/…) leads nowhere, so the pane leaves it out; a remote
    service's link is shown."""
    from corpdir.config import ServiceConfig
    from corpdir.tui.widgets.user_detail import UserDetail

    service = make_service()
    await service.sync.run()
    if embedded:
        service.settings = ServiceConfig()  # no base URL: what `corpdir` with no configuration runs
    app = app_on(service, sync_on_start=False)
    async with app.run_test(size=(120, 36)) as pilot:
        detail = app.screen.query_one(UserDetail)
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None and detail.user is not None
                              and users.highlighted.contactDetailsUrl
                              and users.highlighted.fullnameKana.split()[0] in screen_text(app))
        text = screen_text(app)
        assert ("DEMO" in text) is embedded
        assert ("Details URL" in text) is not embedded and ("127.0.0.1:8765" in text) is not embedded, text
    await service.close()
