"""The Directory offers only what the key may do: the service refuses a loginIds filter
and every write to a person (U2, U4, U5, U7, U8: 403) to a key without user management,
so the reception desk's filter bar has no Login ID field and its keys add, edit or delete
no one (the demo's own key: E opened a whole form that was refused on saving), while an
administrator's bar has a Login ID that works and E opens the form."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from corpdir.service.errors import PermissionDenied
from corpdir.state import State
from corpdir.tui.app import CorpdirApp
from form_helpers import open_form
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_server, make_service
from tui_helpers import listed, screen_text, settle, wait_for
from corpdir.service.backend import backend_of


@pytest.fixture
def server():
    return make_server()


@asynccontextmanager
async def _desk(server, key, size):
    """The app on a cache synced with ``key``: (its service, the app, the pilot)."""
    service = make_service(server, api_key=key)
    try:
        await service.sync.run()
        app = CorpdirApp(service, state=State(), sync_on_start=False)
        async with app.run_test(size=size) as pilot:
            yield service, app, pilot
    finally:
        await service.close()


async def _filter_bar(pilot):
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("f")
    await settle(pilot, lambda: pilot.app.screen.query_one("#filters").has_class("-shown"))
    return pilot.app.screen.query_one("#filters")


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_reception_is_not_offered_a_login_id_filter(server, size):
    async with _desk(server, "demo-reception", size) as (service, app, pilot):
        someone = (await service.people.window(None, limit=1))[0]
        with pytest.raises(PermissionDenied):  # what the field would have led to
            await backend_of(service).client.list_users(loginIds=["reception"])
        bar = await _filter_bar(pilot)
        assert not bar.query("#filter-loginIds")
        assert "Login ID" not in screen_text(app)
        assert "E-mail" in screen_text(app)  # the bar is there, with the filters the key may use
        assert someone.loginId is None  # nothing the key sees carries a login ID


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_an_administrator_filters_by_login_id(server, size):
    async with _desk(server, "demo-admin", size) as (service, app, pilot):
        bar = await _filter_bar(pilot)
        assert await wait_for(pilot, lambda: bool(bar.query("#filter-loginIds")))
        await settle(pilot)
        assert "Login ID" in screen_text(app)
        bar.query_one("#filter-loginIds").focus()
        await pilot.press(*"reception")
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count == 1 and users.row(0) is not None
                              and users.row(0).loginId == "reception", tries=300)


async def _rights_learnt(pilot):
    await settle(pilot, listed(pilot, "#users"))
    screen = pilot.app.screen
    assert await wait_for(pilot, lambda: screen.manages_users is not None)
    await settle(pilot)
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_reception_is_not_offered_to_add_edit_or_delete_people(server, size):
    async with _desk(server, "demo-reception", size) as (service, app, pilot):
        screen = await _rights_learnt(pilot)
        assert screen.manages_users is False
        shown = screen_text(app)  # the key bar: at 80 columns 'E Edit' is past what fits anyway
        assert "Copy no." in shown and "E Edit" not in shown and screen.check_action("edit", ()) is False
        offered = {command.title for command in app.get_system_commands(screen)}  # the command palette
        assert "Copy no." in offered and not offered & {"New user", "Edit", "Delete", "Replace photo", "Delete photo"}
        chosen = screen.selected
        for key in ("E", "n", "delete", "u", "U"):
            before = screen.browse.order_by
            await pilot.press(key, "o")  # 'o' orders the list anew: the key before it has been handled
            assert await wait_for(pilot, lambda: screen.browse.order_by != before)
            assert app.screen is screen, f"{key} opened {app.screen}"
        assert (await backend_of(service).client.get_user(chosen.userId)).userId == chosen.userId
        screen.division_tree.focus()  # E on the tree is the division's: a right the cache cannot tell
        await pilot.pause()
        assert screen.check_action("edit", ()) is True


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_an_administrator_is_offered_edit_and_gets_the_form(server, size):
    async with _desk(server, "demo-admin", size) as (service, app, pilot):
        screen = await _rights_learnt(pilot)
        assert screen.manages_users is True
        assert screen.check_action("edit", ()) is True
        assert {"New user", "Edit", "Delete"} <= {command.title for command in app.get_system_commands(screen)}
        assert ("E Edit" in screen_text(app)) == (size[0] >= 100)  # 80 columns: past what fits
        await pilot.press("E")
        form = await open_form(pilot, app)
        assert f"Edit {screen.selected.fullname}" in screen_text(app) and app.screen is form


async def test_the_palette_on_a_person_full_screen_offers_the_lists_keys(server):
    """The palette asks each screen what it offers, with the binding's own arguments: a
    detail screen's forward('show_photo') is offered by the list it was opened from."""
    from corpdir.tui.screens.detail_screen import DetailScreen

    async with _desk(server, "demo-reception", (80, 24)) as (service, app, pilot):
        await _rights_learnt(pilot)
        await pilot.press("enter")  # 80 columns: no pane, the person full screen
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        offered = {command.title for command in app.get_system_commands(app.screen)}
        assert {"Back", "Photo", "Copy no."} <= offered, offered

