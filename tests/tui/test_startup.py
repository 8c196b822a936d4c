"""Start-up: the first rows come from the cache, and only then does the app talk to the
service (build the client, refresh the division tree, sync a stale cache)."""

from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import LazyStart, Notifications, wait_for


async def test_first_rows_are_painted_before_the_service_is_asked(service):
    """A slow or far service never delays the first screen: rows from the cache are on
    screen before the client is even built; then the tree is refreshed and a stale cache
    is synced."""
    start = LazyStart(service)
    app, seen_at_connect = start.app, start.connected
    first = (await start.service.people.window(None, limit=1))[0]
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: seen_at_connect), "the service was never asked"
        assert first.fullname in seen_at_connect[0]  # the first row was on screen already
        assert users.row(0) is not None
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: 0 in tree._loaded)  # then the tree was refreshed
        assert await wait_for(pilot, lambda: any(m.startswith("Synced:") for m in notes.messages))
    await start.ready.close()


async def test_the_list_is_first_painted_with_its_first_rows(service, monkeypatch):
    """The cache's first window is read with the screen, so the list's first frame holds
    the people: no frame of an empty list (or of "…" rows) comes before them."""
    first_paint: list[object] = []
    render_lines = VirtualList.render_lines

    def recorded(self, crop):  # noqa: ANN001, ANN202
        if self.id == "users" and not first_paint:
            first_paint.append(self.row(0))
        return render_lines(self, crop)

    monkeypatch.setattr(VirtualList, "render_lines", recorded)
    first = (await service.people.window(None, limit=1))[0]
    start = LazyStart(service)
    async with start.app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: first_paint)
        assert first_paint[0] is not None and first_paint[0].fullname == first.fullname
    await start.ready.close()


async def test_the_garbage_collector_is_on_again_once_the_first_rows_are_shown(service):
    """`corpdir` starts with the cyclic collector off (corpdir.commands.tui); a session
    that stayed without it would never free a cycle."""
    import gc

    start = LazyStart(service)
    gc.disable()
    try:
        async with start.app.run_test(size=(120, 36)) as pilot:
            assert await wait_for(pilot, gc.isenabled)
            assert start.app.screen.query_one("#users", VirtualList).row(0) is not None
    finally:
        gc.enable()
        await start.ready.close()
