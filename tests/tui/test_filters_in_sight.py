"""Filters in sight: the filters in force are named under the bar (what
each filters on and its value, also with the bar closed), and one key, Esc, clears every
filter and the search at once, on the Directory and the Contacts screen alike."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for


def summary_line(screen) -> str:
    """What the line under the filter bar paints (its wrapped lines joined by a space)."""
    summary = screen.query_one("#filter-summary")
    if not summary.display:
        return ""
    strips = summary.render_lines(summary.size.region)
    return " ".join(" ".join("".join(s.text for s in strip).split()) for strip in strips).strip()


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
async def test_directory_filters_are_named_and_esc_clears_them_all(make_app, service, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        users = screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        everyone = users.row_count
        person = next(u for u in await service.people.window(None, limit=100) if u.userType == "REGULAR_USER" and u.phoneNum)
        await pilot.press("f")
        assert await wait_for(pilot, lambda: screen.query("#filter-userType"))
        screen.query_one("#filter-userType", Select).value = "REGULAR_USER"
        screen.query_one("#filter-phoneNum", Input).focus()
        await pilot.press(*person.phoneNum)
        assert await wait_for(pilot, lambda: dict(screen.browse.filters).get("phoneNum") == person.phoneNum
                              and 0 < users.row_count < everyone), (screen.browse.filters, users.row_count, everyone)
        said = f"Filtered by type Regular user, phone {person.phoneNum}"
        assert await wait_for(pilot, lambda: said in summary_line(screen)), summary_line(screen)
        users.focus()
        await pilot.press("f")  # the bar closes: the filters stay in force and in sight
        assert await wait_for(pilot, lambda: not screen.query_one("#filters").has_class("-shown"))
        assert said in summary_line(screen) and summary_line(screen).endswith("(Esc clears all)"), summary_line(screen)
        screen.query_one("#search", Input).value = users.highlighted.fullname.split()[0]
        assert await wait_for(pilot, lambda: screen.browse.text)

        await pilot.press("escape")  # one key: search and every filter
        assert await wait_for(pilot, lambda: users.row_count == everyone and not screen.browse.filters
                              and not screen.browse.text)
        assert screen.query_one("#search", Input).value == "" and screen.query_one("#filter-phoneNum", Input).value == ""
        assert screen.query_one("#filter-userType", Select).is_blank()
        assert await wait_for(pilot, lambda: not summary_line(screen) and "Filtered by" not in screen_text(app))
        assert f"Everyone · {everyone} people" in screen_text(app)


async def contact_filters_open(pilot, app):
    """F2 with its rows in, then f: the Contacts screen and its list, the filter bar open.
    (Highlighted rows first: the filters' counts are compared with the whole list's.)"""
    await pilot.press("f2")
    screen = app.screen
    contacts = screen.query_one("#contacts", VirtualList)
    assert await wait_for(pilot, lambda: contacts.highlighted is not None)
    await pilot.press("f")
    return screen, contacts


async def test_contact_filters_are_named_and_esc_clears_them_all(make_app, service):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen, contacts = await contact_filters_open(pilot, app)
        everyone = contacts.row_count
        company = contacts.highlighted.companyName
        screen.query_one("#filter-companyName", Input).value = company  # as an IME commits it
        assert await wait_for(pilot, lambda: screen.browse.filters and 0 < contacts.row_count < everyone)
        assert await wait_for(pilot, lambda: f"Filtered by company {company}" in summary_line(screen)), summary_line(screen)
        contacts.focus()
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: contacts.row_count == everyone and not screen.browse.filters)
        assert screen.query_one("#filter-companyName", Input).value == ""
        assert await wait_for(pilot, lambda: not summary_line(screen) and "Filtered by" not in screen_text(app))


@pytest.mark.parametrize("screen_key", ["f1", "f2"])
async def test_the_focused_filter_field_is_marked_as_the_focused_search_box_is(make_app, screen_key):
    """Tab through the filter bar: the field the keys go to has the search box's focus
    colour, the others not (a compact field's own focus was a shade lighter only)."""
    from textual.widgets._select import SelectCurrent

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(screen_key)
        rows = app.screen.query_one(VirtualList)
        assert await wait_for(pilot, lambda: rows.row_count > 0)
        await pilot.press("slash")
        box = app.screen.query_one("#search", Input)
        assert await wait_for(pilot, lambda: app.focused is box)
        focused = box.styles.background
        await pilot.press("escape", "f")
        fields = list(app.screen.query("#filters Input, #filters Select"))
        assert await wait_for(pilot, lambda: app.focused in fields)

        def painted(field):
            return (field.query_one(SelectCurrent) if isinstance(field, Select) else field).styles.background

        for _ in fields:
            assert painted(app.focused) == focused
            assert all(painted(f) != focused for f in fields if f is not app.focused)
            await pilot.press("tab")
            if app.focused not in fields:
                break


@pytest.mark.parametrize("typed", ["2024/1/5", "２０２４年１月５日", "2024-01-05"])
async def test_a_contact_date_filter_takes_a_date_as_a_japanese_desk_writes_it(make_app, typed):
    """2024/1/5 (not 2024/01/05), 2024年1月5日, full-width digits: the filter in force says
    "updated from 2024-01-05", with no "is not a date" (only YYYY-MM-DD was taken)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen, _ = await contact_filters_open(pilot, app)
        screen.query_one("#filter-updatedFrom", Input).value = typed  # as an IME commits it
        assert await wait_for(pilot, lambda: "updated from 2024-01-05" in summary_line(screen)), summary_line(screen)
        assert "not a date" not in screen_text(app)
