"""Focus after the pop-up: when the card someone moved to (F9) closes, by ``d``, ``D`` or
its ended call's time running out, the keys typed next reach the widget that had them
before: the search box, the list (arrows move it), the form's field, the chart. Without
this the keys went nowhere, and once a query typed after closing cards never reached the
search box while the next Delete + ``y`` deleted the first contact of the list."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from call_helpers import cards, desk_app, feed_ready
from calls.test_popup import ring_in
from corpdir.tui.widgets.ring_card import RingCard
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, type_into
from tui_helpers import listed, wait_for

NUMBER = "0357004321"  # an unknown caller: its card offers every key


class Clock:
    """The session's clock, moved by the test: an ended card's time runs out at once."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def close_card(pilot, how: str, clock: Clock) -> None:
    """Ring, move to the card (F9), close it ``how``: d, D, or its end's time runs out."""
    app = pilot.app
    await ring_in(NUMBER, call_id="c1")
    assert await wait_for(pilot, lambda: len(cards(app)) == 1)
    before = app.focused
    await pilot.press("f9")
    assert isinstance(app.focused, RingCard) and app.focused is not before
    if how == "timeout":
        await ring_in(NUMBER, call_id="c1", state="ended")
        assert await wait_for(pilot, lambda: cards(app) and cards(app)[0].has_class("-ended"))
        clock.now += app.desk_phone.session.settings.ended_card_seconds
        app.desk_phone.session.sweep()
    else:
        await pilot.press(how)
    assert await wait_for(pilot, lambda: not cards(app))
    await pilot.pause()


async def search_box(pilot) -> Any:
    await pilot.press("slash")
    return pilot.app.focused


def a_list(selector: str, *keys: str):  # noqa: ANN201 - a scene: pilot -> the focused list
    """The list ``selector`` on the screen ``keys`` go to, focused once it has rows."""
    async def focus(pilot) -> Any:
        await pilot.press(*keys)
        assert await wait_for(pilot, listed(pilot, selector), tries=300)
        found = pilot.app.screen.query_one(selector, VirtualList)
        found.focus()
        return found
    return focus


async def lookup_numbers(pilot) -> Any:
    await pilot.press("f4")
    assert await wait_for(pilot, lambda: pilot.app.screen.query("#numbers"))
    found = pilot.app.screen.query_one("#numbers")
    found.focus()
    return found


async def a_form_field(pilot) -> Any:
    await pilot.press("f3", "n")
    form = await open_form(pilot, pilot.app)
    await type_into(pilot, form, "note", "Tana")
    return form.widget("note")


async def typed_into(pilot, widget: Input, keys: str) -> None:
    before = widget.value
    await pilot.press(*keys)
    assert widget.value == before + keys
    assert pilot.app.focused is widget


async def moved_by_arrows(pilot, widget: VirtualList) -> None:
    assert pilot.app.focused is widget
    start = widget.cursor
    await pilot.press("down", "down")
    assert widget.cursor == start + 2
    await pilot.press("up")
    assert widget.cursor == start + 1


SCREENS = {  # where the focus was, and what keys typed after the close must do there
    "directory-search": (search_box, lambda pilot, w: typed_into(pilot, w, "tan")),
    "directory-list": (a_list("#users"), moved_by_arrows),
    "contacts-list": (a_list("#contacts", "f2"), moved_by_arrows),
    "calls-list": (a_list("#calls", "f3"), moved_by_arrows),
    "lookup": (lookup_numbers, lambda pilot, w: typed_into(pilot, w, "0312")),
    "form": (a_form_field, lambda pilot, w: typed_into(pilot, w, "ka")),
}


@pytest.mark.parametrize("how", ["d", "D", "timeout"])
@pytest.mark.parametrize("where", list(SCREENS))
async def test_keys_reach_the_widget_that_had_the_focus_after_the_card_closes(service, where, how):
    clock = Clock()
    app = desk_app(service)
    app.desk_phone.session.clock = clock
    focus, check = SCREENS[where]
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        widget = await focus(pilot)
        await close_card(pilot, how, clock)
        assert app.focused is widget
        await check(pilot, widget)


async def test_escape_reaches_the_chart_after_the_card_closes_and_the_chart_kept_its_size(service):
    app = desk_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await feed_ready(pilot, "ring")
        await a_list("#calls", "f3")(pilot)
        await pilot.press("t")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CallsChart")
        chart = app.screen.query_one("#chart")
        await pilot.pause()
        size = chart.size
        await ring_in(NUMBER, call_id="c1")
        assert await wait_for(pilot, lambda: len(cards(app)) == 1)
        await pilot.pause()
        assert chart.size == size  # the band floats over the chart instead of squeezing it
        await close_card(pilot, "d", Clock())
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ != "CallsChart")


async def test_after_d_the_focus_goes_to_the_newest_card_left(service):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        for n in range(3):
            await ring_in(f"035700000{n}", call_id=f"c{n}")
            assert await wait_for(pilot, lambda: len(cards(app)) == n + 1)
        await pilot.press("f9")  # the newest, c2
        assert app.focused.ring.event.call_id == "c2"
        await pilot.press("d")
        assert await wait_for(pilot, lambda: len(cards(app)) == 2)
        assert app.focused.ring.event.call_id == "c1"  # the newest left, not the oldest
