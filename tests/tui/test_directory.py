"""The directory screen, driven as a receptionist would, against the real stack."""

from contextlib import contextmanager

from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def test_starts_on_everyone_with_rows_from_the_cache(make_app, service):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count == backend_of(service).store.count_users() and users.highlighted is not None)
        first = (await service.people.window(None, limit=1))[0]
        assert users.highlighted.userId == first.userId
        assert "DEMO" not in app.title or app.sub_title  # header names the tenant


async def test_selecting_a_division_lists_its_members(make_app, service):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: len(tree.root.children) > 0 and tree.root.children[0].data is not None)
        top = tree.root.children[0]
        tree.focus()
        top.expand()
        assert await wait_for(pilot, lambda: any(c.data is not None for c in top.children))
        division_node = next(c for c in top.children if c.data is not None)
        tree.select_node(division_node)
        await pilot.pause()
        users = app.screen.query_one("#users", VirtualList)
        expected = backend_of(service).store.count_users(division_node.data.divisionId)
        assert await wait_for(pilot, lambda: users.row_count == expected)
        await pilot.press("s")  # include sub-divisions
        expected_sub = backend_of(service).store.count_users(division_node.data.divisionId, include_sub=True)
        assert await wait_for(pilot, lambda: users.row_count == expected_sub)
        assert expected_sub >= expected


async def test_typing_a_kana_search_finds_the_person(make_app, service):
    target = next(u for u in await service.people.window(None, limit=100) if u.fullnameKana)
    family_kana = target.fullnameKana.split()[0]
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("slash")
        # typed in hiragana, as a receptionist would
        import jaconv

        await pilot.press(*jaconv.kata2hira(family_kana))
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0 and users.row(0) is not None and
                              any(users.row(i) is not None and users.row(i).userId == target.userId for i in range(users.row_count)))


async def test_keys_typed_right_after_slash_land_in_the_search_box(make_app):
    """A fast typist, or a paste over SSH: '/' and the name arrive in one burst, all queued
    before the '/' is handled. None may go to the list."""
    from textual import events

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0)
        for char in "/tanaka":
            app.post_message(events.Key("slash" if char == "/" else char, char))
        search = app.screen.query_one("#search")
        assert await wait_for(pilot, lambda: search.value == "tanaka"), search.value
        assert app.focused is search
        await pilot.press("slash")  # in the box, '/' is text
        assert search.value == "tanaka/"


async def test_opening_a_user_shows_photo_and_profile(make_app, service):
    with_photo = None
    for user in await service.people.window(None, limit=100):
        if await service.images.photo(user.userId) and (await service.people.profile(user.userId)).skills:
            with_photo = user
            break
    assert with_photo is not None
    profile = await service.people.profile(with_photo.userId)
    app = make_app()
    async with app.run_test(size=(140, 80)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0 and users.row(0) is not None)
        index = next(i for i in range(users.row_count) if users.row(i) and users.row(i).userId == with_photo.userId)
        users.cursor = index
        assert await wait_for(pilot, lambda: profile.skills[0] in screen_text(app))
        assert app.screen.query_one(UserDetail).user.userId == with_photo.userId
        assert with_photo.fullname in screen_text(app)
        # the photo is drawn in half-block pixels
        assert await wait_for(pilot, lambda: "▄" in screen_text(app) or "▀" in screen_text(app))


async def test_filters_by_user_type_and_untouched_filters_send_nothing(make_app, service):
    from textual.widgets import Select

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f")
        screen = app.screen
        assert screen.query_one("#filters").has_class("-shown")
        assert screen.query_one("UserFilters").values() == ()  # "Any type" is no filter
        screen.query_one("#filter-userType", Select).value = "FACILITY"
        users = screen.query_one("#users")
        facilities = [u async for u in backend_of(service).client.iter_users({"userType": "FACILITY"})]
        assert facilities
        assert await wait_for(pilot, lambda: users.row_count == len(facilities) and all(
            users.row(i) is not None and users.row(i).userType == "FACILITY" for i in range(users.row_count)))


async def test_the_search_box_holds_its_echo_for_the_rows_and_never_longer_than_its_hold(make_app, monkeypatch):
    """Typing holds the screen's frame until the list has the answer (one frame for both),
    and lets go after SearchBox.HOLD even when no answer comes."""
    from corpdir.tui.widgets.search_box import SearchBox

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0)
        search = app.screen.query_one("#search", SearchBox)
        held, batches = [], []  # batches: the app's batch updates open now (frames held)
        batch_update = app.batch_update

        @contextmanager
        def counted():
            batches.append(1)
            try:
                with batch_update():
                    yield
            finally:
                batches.pop()

        original = search.watch_value

        def watching() -> None:
            original()
            held.append(bool(batches))  # frames are held while the search runs

        monkeypatch.setattr(app, "batch_update", counted)
        monkeypatch.setattr(search, "watch_value", watching)
        await pilot.press("slash", "t", "a")
        assert held == [True, True]
        assert await wait_for(pilot, lambda: search._hold is None and not batches)
        assert await wait_for(pilot, lambda: 'search "ta"' in screen_text(app))

        # no rows come (the service is never answered): the text is painted after HOLD anyway
        monkeypatch.setattr(type(app.screen), "run_search", lambda self, browse: None)
        search.value += "k"
        assert search._hold is not None
        await pilot.pause(SearchBox.HOLD * 2)
        assert search._hold is None and not batches
