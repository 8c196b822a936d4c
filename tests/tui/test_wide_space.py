"""The full-width space (U+3000) a Japanese input method types for the space bar: it goes
into the field where it was typed, in its place among the characters committed with it
(Textual's fields dropped it, as not printable)."""

from textual import events

from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import listed, screen_text, wait_for

WIDE = "\u3000"


def commit(app, text: str) -> None:
    """``text`` as an input method commits it: every key in one read from the terminal."""
    for char in text:
        key = "ideographic_space" if char == WIDE else char
        app._driver.send_message(events.Key(key, char))


async def test_two_numbers_with_a_full_width_space_between_are_two_lookups(make_app, service):
    people = [u for u in await service.people.window(None, limit=200) if u.phoneNum][:2]
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        numbers = app.screen.query_one("#numbers")
        assert await wait_for(pilot, lambda: app.focused is numbers)
        commit(app, f"{people[0].phoneNum}{WIDE}{people[1].phoneNum}")
        assert await wait_for(pilot, lambda: numbers.value == f"{people[0].phoneNum}{WIDE}{people[1].phoneNum}")
        await pilot.press("enter")
        results = app.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.row_count == 2 and "2 asked · 2 found" in screen_text(app))


async def test_a_name_keeps_the_full_width_space_typed_in_it(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f2")
        assert await wait_for(pilot, listed(pilot, "#contacts"))
        await pilot.press("n")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ModelForm))
        form = app.screen
        name = form.widget("fullname")
        assert await wait_for(pilot, lambda: app.focused is name)
        commit(app, f"山田{WIDE}太郎")
        assert await wait_for(pilot, lambda: name.value == f"山田{WIDE}太郎")


async def test_the_search_box_takes_a_full_width_space(make_app, service):
    person = next(u for u in await service.people.window(None, limit=200) if u.fullname and " " in u.fullname)
    family, given = person.fullname.split(" ", 1)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, listed(pilot, "#users"))
        await pilot.press("slash")
        commit(app, f"{family}{WIDE}{given}")
        box = app.screen.query_one("#search")
        assert await wait_for(pilot, lambda: box.value == f"{family}{WIDE}{given}")
        assert await wait_for(pilot, lambda: app.screen.selected is not None and app.screen.selected.fullname == person.fullname)
