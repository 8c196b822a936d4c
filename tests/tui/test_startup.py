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


async def test_the_first_screen_on_settings_not_yet_checked_paints_the_rows_it_will_keep(service, monkeypatch):
    """`corpdir` paints its first screen before pydantic is imported: the settings it needs
    read without it (corpdir.config.first), the first rows and the top of the tree as plain
    records (corpdir.cache.plain). The whole settings are checked right after; the rows
    then on screen are the same, now the records' models (the pane, the forms and the
    keys get models, never plain rows), and the check's warnings are told."""
    from corpdir.config import Settings
    from corpdir.config.first import FIRST_SERVICE, FirstService, FirstUi
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp
    from corpdir.tui.widgets.user_detail import UserDetail

    checked = Settings(service=service.settings)
    service.settings = FirstService({**FIRST_SERVICE, "base_url": checked.service.base_url, "api_key": "demo-reception"})
    first_paint: list[list[str]] = []
    render_lines = VirtualList.render_lines

    def recorded(self, crop):  # noqa: ANN001, ANN202
        lines = render_lines(self, crop)
        if self.id == "users" and not first_paint:
            first_paint.append([line.text for line in lines[:12]])
            first_paint.append([type(self.row(i)).__name__ for i in range(10)])
        return lines

    monkeypatch.setattr(VirtualList, "render_lines", recorded)
    notes = Notifications()
    app = CorpdirApp(service, FirstUi(None, False), state=State(), sync_on_start=False,
                     check=lambda: (checked, ["[ui] them: no such setting"]))
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        assert await wait_for(pilot, lambda: service.settings is checked.service)
        assert first_paint[1] == ["Plain"] * 10  # the first frame's rows, read without their model
        users = app.screen.query_one("#users", VirtualList)
        assert {type(users.row(i)).__name__ for i in range(10)} == {"User"}
        assert [line.text for line in users.render_lines(users.region.reset_offset)[:12]] == first_paint[0]
        first = users.row(0)
        assert await wait_for(pilot, lambda: app.screen.selected is not None)
        assert app.screen.selected.userId == first.userId and type(app.screen.selected).__name__ == "User"
        detail = app.screen.query_one(UserDetail)
        assert await wait_for(pilot, lambda: detail.user is not None and detail.user.userId == first.userId)
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: {type(node.data).__name__ for node in tree._division_nodes()
                                              if node.data is not None} == {"Division"})
        assert any("them" in message for message in notes.messages)


async def test_a_setting_found_breaking_a_rule_after_the_first_screen_ends_the_app(service):
    """The whole settings are checked after the first rows: a rule broken there (a
    mistyped gateway port) ends the app with status 2 and the error for `corpdir` to print,
    before anything is asked of the service."""
    from corpdir.config.first import FIRST_SERVICE, FirstService, FirstUi
    from corpdir.paths import SettingsError
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    real = service.settings
    service.settings = FirstService({**FIRST_SERVICE, "base_url": real.base_url, "api_key": "demo-reception"})

    def check():  # noqa: ANN202
        raise SettingsError("[gateway] port: Input should be a valid integer")

    app = CorpdirApp(service, FirstUi(None, False), state=State(), check=check)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: app.settings_error is not None)
    assert app.return_code == 2
    assert "[gateway] port" in str(app.settings_error)
    assert service.settings.provisional  # the service was never given settings to ask with


async def test_a_key_typed_before_the_check_gets_a_record_not_a_plain_row(service):
    """Keys typed ahead reach the screen before the settings' check has made the first
    frame's rows models: what they act on (the chosen person, the tree's division, the desk
    phone's settings) is the record's model, and the desk phone waits for the checked
    settings rather than running without them."""
    from corpdir.config import CallsConfig, Settings
    from corpdir.config.first import FIRST_SERVICE, FirstService, FirstUi
    from corpdir.service.first_records import as_model
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    checked = Settings(service=service.settings, calls=CallsConfig(ring_socket=False))
    service.settings = FirstService({**FIRST_SERVICE, "base_url": checked.service.base_url, "api_key": "demo-reception"})
    plain_user = service.people.of_division(None).first(1)[1][0]
    plain_division = (await service.divisions.children(None))[0]
    assert type(plain_user).__name__ == type(plain_division).__name__ == "Plain"
    app = CorpdirApp(service, FirstUi(None, False), state=State(), sync_on_start=False, check=lambda: (checked, []))
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: service.settings is checked.service)
        directory = app.screen
        directory.selected = plain_user  # as a highlight before the check left it
        chosen = directory.selected
        assert type(chosen).__name__ == "User" and chosen.userId == plain_user.userId
        assert as_model(plain_division).divisionId == plain_division.divisionId
        assert app.desk_phone.session is not None and app.desk_phone.settings is checked.calls
