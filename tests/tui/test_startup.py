"""Start-up: the first rows come from the cache, and only then does the app talk to the
service (build the client, refresh the division tree, sync a stale cache)."""

import time

from corpdir.client import DirectoryClient
from corpdir.service.directory import DirectoryService
from corpdir.state import State
from corpdir.tui.app import CorpdirApp
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_service
from tui_helpers import Notifications, screen_text, wait_for
from corpdir.service.backend import backend_of


async def test_first_rows_are_painted_before_the_service_is_asked(service):
    """A slow or far service never delays the first screen: rows from the cache are on
    screen before the client is even built; then the tree is refreshed and a stale cache
    is synced."""
    ready = make_service()  # the same tenant, reached by a client built on demand
    seen_at_connect: list[str] = []
    app: CorpdirApp | None = None

    def connect() -> DirectoryClient:
        seen_at_connect.append(screen_text(app))
        return backend_of(ready).client

    lazy = DirectoryService(None, backend_of(service).store, ready.settings, connect=connect)
    lazy.clock = lambda: time.time() + 86400  # a day later: the cache is stale, so the app syncs
    first = (await lazy.people.window(None, limit=1))[0]
    app = CorpdirApp(lazy, state=State())
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: seen_at_connect), "the service was never asked"
        assert first.fullname in seen_at_connect[0]  # the first row was on screen already
        assert users.row(0) is not None
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: 0 in tree._loaded)  # then the tree was refreshed
        assert await wait_for(pilot, lambda: any(m.startswith("Synced:") for m in notes.messages))
    await ready.close()
