"""Lists that are complete and current: a filter shows every
match as the user scrolls, and what the user deleted leaves the lists at once."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from corpdir.state import State
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import demo_tenant, make_server, make_service
from tui_helpers import screen_text, wait_for


@pytest.fixture
async def big_service():
    """A tenant with more regular users than one page of U1 (100)."""
    svc = make_service(make_server(demo_tenant(300)))
    await svc.sync()
    yield svc
    await svc.close()


def app_on(service):
    from corpdir.tui.app import CorpdirApp

    return CorpdirApp(service, state=State(), sync_on_start=False)


async def test_a_type_filter_shows_every_match_as_the_user_scrolls(big_service):
    regular = [u async for u in big_service.client.iter_users({"userType": "REGULAR_USER"})]
    assert len(regular) > 200
    app = app_on(big_service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f")
        app.screen.query_one("#filter-userType", Select).value = "REGULAR_USER"
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count == 100 and users.has_more)
        assert await wait_for(pilot, lambda: "first 100, more as you scroll" in screen_text(app)), screen_text(app)
        users.focus()
        for _ in range(10):
            await pilot.press("end")
            if await wait_for(pilot, lambda: users.row_count == len(regular) and not users.has_more, tries=30):
                break
        assert users.row_count == len(regular) and not users.has_more
        assert f"· {len(regular)} people ·" in screen_text(app)
        await pilot.press("end")
        last = range(users.row_count - 20, users.row_count)  # on screen after End
        assert await wait_for(pilot, lambda: all(users.row(i) is not None for i in last))
        assert {users.row(i).userId for i in last} <= {u.userId for u in regular}
