"""What the desk remembers per profile: the people and contacts opened from the Directory
and Contacts (not only from a ring card) are in F8's "Recently viewed"; numbers looked up
on one profile are not listed on another, and the one list of earlier versions goes to
the first profile that asks."""

from __future__ import annotations

import json

from corpdir.state import State, state_path
from corpdir.tui.screens.detail_screen import DetailScreen
from tui_helpers import listed, screen_text, wait_for


def recently_viewed(app) -> str:
    """The text of F8's list below its "Recently viewed" heading."""
    text = screen_text(app)
    assert "Recently viewed" in text
    return text[text.index("Recently viewed"):]


async def test_people_and_contacts_opened_from_the_lists_are_recently_viewed(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # narrow: Enter opens the full-screen detail
        assert await wait_for(pilot, listed(pilot, "#users"))
        await pilot.press("down")
        assert await wait_for(pilot, lambda: app.screen.selected is not None and app.screen.selected.userId)
        person = app.screen.selected
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        await pilot.press("escape")
        await pilot.resize_terminal(120, 36)  # wide: Enter focuses the detail pane
        await pilot.press("f2")
        assert await wait_for(pilot, listed(pilot, "#contacts"))
        assert await wait_for(pilot, lambda: app.screen.selected is not None)
        contact = app.screen.selected
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.screen.query_one("#detail").has_focus)
        await pilot.press("f8")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PeopleAtHandScreen")
        recent = recently_viewed(app)
        assert contact.fullname in recent and person.fullname in recent
        assert recent.index(contact.fullname) < recent.index(person.fullname)  # the latest first


async def test_a_row_the_cursor_passes_over_is_not_recently_viewed(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, listed(pilot, "#users"))
        await pilot.press("down", "down")
        assert await wait_for(pilot, lambda: app.screen.selected is not None and not app.screen.details_pending)
        passed = app.screen.selected
        await pilot.press("c")  # copying the number is using it: viewed
        await pilot.press("down")
        assert await wait_for(pilot, lambda: app.screen.selected != passed and not app.screen.details_pending)
        skipped = app.screen.selected
        await pilot.press("f8")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PeopleAtHandScreen")
        recent = recently_viewed(app)
        assert passed.fullname in recent and skipped.fullname not in recent


async def test_recent_lookups_are_kept_per_profile(make_app, service):
    State().remember_lookup("another-service", "0399990001")  # an admin session elsewhere
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        await pilot.press("slash", *"0312340000", "enter")
        assert await wait_for(pilot, lambda: "1 asked" in screen_text(app))
        text = screen_text(app)
        assert "0312340000" in text and "0399990001" not in text
    kept = State()
    assert kept.recent_lookups(service.settings.profile().cache_path().stem) == ["0312340000"]
    assert kept.recent_lookups("another-service") == ["0399990001"]


async def test_one_number_written_two_ways_is_one_recent_lookup(make_app, service):
    """'0312340000' then '+81 3 1234 0000' listed '03-1234-0000' twice among the recent lookups."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        await pilot.press("slash", *"0312340000, 0399990001", "enter")
        assert await wait_for(pilot, lambda: "2 asked" in screen_text(app))
        await pilot.press("slash", "ctrl+u", *"+81 3 1234 0000", "enter")
        assert await wait_for(pilot, lambda: "1 asked" in screen_text(app))
    kept = State().recent_lookups(service.settings.profile().cache_path().stem)
    assert kept == ["+81 3 1234 0000", "0399990001"]


def test_the_one_list_of_earlier_versions_goes_to_the_first_profile_that_asks():
    path = state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"theme": "corpdir-dark", "recent_lookups": ["0311110000", "0322220000"]}))
    state = State()
    assert state.recent_lookups("desk") == ["0311110000", "0322220000"]
    assert state.recent_lookups("admin") == []
    again = State()  # the move is written: the next run agrees
    assert again.recent_lookups("desk") == ["0311110000", "0322220000"] and again.recent_lookups("admin") == []
    assert "recent_lookups" not in json.loads(path.read_text()) and again.get("theme") == "corpdir-dark"


async def test_f8_says_how_to_close_it_at_80x24_and_120x36(make_app):
    """Its line of keys ends in "Esc close", not in a bare "Esc" cut at the frame."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, listed(pilot, "#users"))
        await pilot.press("f8")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PeopleAtHandScreen")
        for size in [(80, 24), (120, 36)]:
            await pilot.resize_terminal(*size)
            assert await wait_for(pilot, lambda: "* favourite Esc close" in screen_text(app)), size
