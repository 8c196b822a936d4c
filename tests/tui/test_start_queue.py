"""An app started in a burst of SSH sessions (``CORPDIR_START_QUEUE`` names the server's
start queue): its first rows are painted at once, and what it asks of the service after
them (the client, the division tree, a stale cache's sync, the person's photo and profile)
waits until the server closes the queue."""

import os

from corpdir.state import State
from corpdir.tui.app import CorpdirApp
from corpdir.tui.start_queue import ENV
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import LazyStart, Notifications, screen_text, wait_for


async def test_the_first_rows_come_at_once_and_the_service_waits_for_the_queue(service, tmp_path, monkeypatch):
    queue = tmp_path / "queue"
    os.mkfifo(queue)
    writer = os.open(queue, os.O_RDWR | os.O_NONBLOCK)  # the server's end, held while sessions wait
    monkeypatch.setenv(ENV, str(queue))
    start = LazyStart(service)
    app, connected = start.app, start.connected
    first = (await start.service.people.window(None, limit=1))[0]
    notes = Notifications()
    try:
        async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
            users = app.screen.query_one("#users", VirtualList)
            held = lambda: any(w.group == "start-queue" and not w.is_finished for w in app.screen.workers)  # noqa: E731
            assert await wait_for(pilot, lambda: users.row(0) is not None and first.fullname in screen_text(app) and held())
            assert connected == []  # rows on screen, and nothing asked of the service yet
            os.close(writer)  # the queue emptied
            writer = None
            assert await wait_for(pilot, lambda: connected)
            tree = app.screen.query_one(DivisionTree)
            assert await wait_for(pilot, lambda: 0 in tree._loaded)
            assert await wait_for(pilot, lambda: any(m.startswith("Synced:") for m in notes.messages))
    finally:
        if writer is not None:
            os.close(writer)
        await start.ready.close()


async def test_an_app_whose_queue_is_gone_goes_on_at_once(service, tmp_path, monkeypatch):
    """The queue emptied (and the server removed it) before the app's first rows."""
    monkeypatch.setenv(ENV, str(tmp_path / "gone"))
    app = CorpdirApp(service, state=State())
    async with app.run_test(size=(120, 36)) as pilot:
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: 0 in tree._loaded)
