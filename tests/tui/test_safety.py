"""Data is text: names and fields from the service are shown as typed, never as Rich
markup, and no control character from the service reaches the terminal.

The hostile records go in through the admin API of the reference server (the way a
careless or malicious admin would put them there) and reach the reception user by sync;
what the service's own validation would refuse goes straight into the cache, as a
non-conforming service could deliver it. Each check reads what is on screen (Textual's
own SVG export) and the export itself: no ESC anywhere, the literal brackets present.
"""

from __future__ import annotations

import pytest

from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_server, make_service
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of

R = "\ufffd"  # what a control character becomes on screen
MARKUP = "[red]x[/red]"
LINK = "[link=file:///etc/passwd]x"
OSC52 = "evil\x1b]52;c;SGVsbG8=\x07name"  # would set the clipboard of the receptionist's terminal
CLEAR = "wipe\x1b[2Jname"  # would clear the screen
DIVISION = "[bold]Sales[/bold]\x1b[31m"
HOSTILE = (MARKUP, LINK, OSC52, CLEAR)


def on_screen(value: str) -> str:
    return value.replace("\x1b", R).replace("\x07", R)


@pytest.fixture
async def hostile():
    """A reception service synced from a tenant where an admin created hostile records."""
    server = make_server()
    admin = make_service(server, api_key="demo-admin")
    division = await backend_of(admin).client.create_division(divisionCode="HOSTILE", divisionName=DIVISION)
    ids = {}
    for i, name in enumerate(HOSTILE):
        user = await backend_of(admin).client.create_user(loginId=f"hostile{i}", fullname=name, position="[blink]boss[/blink]",
                                              phoneNum=f"03-5555-000{i}", divisionIds=[division.divisionId])
        ids[name] = user.userId
    await admin.close()
    service = make_service(server)
    await service.sync.run()
    yield service, ids
    await service.close()


def app_for(service):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    return CorpdirApp(service, state=State(), sync_on_start=False)


def assert_inert(app) -> None:
    svg = app.export_screenshot()
    assert "\x1b" not in svg and "\x07" not in svg


async def show_user(pilot, users: VirtualList, user_id: int) -> None:
    assert await wait_for(pilot, lambda: users.row_count > 0 and all(users.row(i) is not None for i in range(users.row_count)))
    users.cursor = next(i for i in range(users.row_count) if users.row(i).userId == user_id)
    detail = pilot.app.screen.query(UserDetail)
    if detail:
        assert await wait_for(pilot, lambda: detail.first().user is not None and detail.first().user.userId == user_id)


async def test_names_are_literal_in_list_detail_tree_and_photo_title(hostile):
    service, ids = hostile
    app = app_for(service)
    async with app.run_test(size=(150, 90)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        await show_user(pilot, users, ids[MARKUP])
        text = screen_text(app)
        for name in HOSTILE:  # every one in the list (the list is tall enough for the small tenant)
            assert on_screen(name) in text or on_screen(name)[:10] in text
        assert MARKUP in text and "[blink]boss[/blink]" in text  # detail pane: name and position, as typed
        assert on_screen(DIVISION) in text  # the detail's division line
        assert_inert(app)

        for name in (LINK, OSC52, CLEAR):
            await show_user(pilot, users, ids[name])
            assert await wait_for(pilot, lambda: on_screen(name) in screen_text(app))
            assert_inert(app)

        # the division tree: the division's own label, and its members when chosen
        tree = app.screen.query_one("#tree")
        assert await wait_for(pilot, lambda: any(n.data is not None for n in tree.root.children))
        node = next(n for n in tree.root.children if n.data is not None and n.data.divisionName == DIVISION)
        tree.select_node(node)
        assert await wait_for(pilot, lambda: users.row_count == len(HOSTILE))
        assert await wait_for(pilot, lambda: on_screen(DIVISION) in screen_text(app))
        assert_inert(app)

        # the photo screen puts the name in its border title
        await show_user(pilot, users, ids[MARKUP])
        users.focus()
        await pilot.press("p")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PhotoScreen")
        assert await wait_for(pilot, lambda: MARKUP in screen_text(app))
        assert_inert(app)


async def test_search_results_and_narrow_detail_are_literal(hostile):
    service, ids = hostile
    app = app_for(service)
    async with app.run_test(size=(80, 24)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        await pilot.press("slash", *"wipe")
        assert await wait_for(pilot, lambda: users.row_count >= 1 and users.row(0) is not None
                              and users.row(0).userId == ids[CLEAR])
        assert await wait_for(pilot, lambda: on_screen(CLEAR) in screen_text(app))
        assert 'search "wipe"' in screen_text(app)
        assert_inert(app)
        await pilot.press("enter")  # to the list
        await pilot.press("enter")  # details, full screen at 80 columns
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        assert await wait_for(pilot, lambda: on_screen(CLEAR) in screen_text(app) and "[blink]boss[/blink]" in screen_text(app))
        assert_inert(app)


async def test_notifications_quote_data_literally(hostile):
    """The copy notification quotes the copied value; values a conforming service would
    refuse (markup and control characters in an e-mail) come straight from the cache."""
    service, ids = hostile
    record = (await service.people.user(ids[MARKUP])).record
    email = "[red]boss[/red]@\x1b]52;c;SGVsbG8=\x07.example"
    backend_of(service).store.put_users([{**record.model_dump(exclude_none=True, mode="json"), "email1": email}])
    app = app_for(service)
    async with app.run_test(size=(150, 50), notifications=True) as pilot:  # run_test hides toasts unless asked
        users = app.screen.query_one("#users", VirtualList)
        await show_user(pilot, users, ids[MARKUP])
        users.focus()
        await pilot.press("e")
        assert await wait_for(pilot, lambda: "Copied e-mail: " + on_screen(email) in screen_text(app))
        assert_inert(app)
        # a worker's failure quoting service text: shown as typed, no markup, no ESC
        app.notify(f"No: {MARKUP} {OSC52}", title=LINK, severity="warning")
        assert await wait_for(pilot, lambda: on_screen(f"No: {MARKUP} {OSC52}") in screen_text(app))
        assert LINK in screen_text(app)
        assert_inert(app)
        assert app.clipboard == on_screen(email)  # nothing to replay when pasted


async def test_a_screenshot_is_written_0600_like_an_export(service, tmp_path):
    """It shows names and numbers on screen; it was written 0644 while exports are 0600."""
    import os
    import stat

    old = os.umask(0o022)  # the usual umask: a file opened plainly comes out 0644
    try:
        app = app_for(service)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            app.deliver_screenshot("desk.svg", path=str(tmp_path))
            shot = tmp_path / "desk.svg"
            assert await wait_for(pilot, lambda: shot.exists() and shot.read_text().rstrip().endswith("</svg>"))
    finally:
        os.umask(old)
    assert stat.S_IMODE(shot.stat().st_mode) == 0o600
