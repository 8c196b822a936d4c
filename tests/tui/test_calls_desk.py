"""The Calls screen at the desk: a caller saved as a contact (S) is named on their row at
once; a missed call can be marked handled by hand (h), leaving "call back"."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from call_helpers import desk_app
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, save, type_into
from tui_helpers import screen_text, wait_for

NOW = datetime.now(timezone.utc).replace(microsecond=0)


def rows(app):
    return app.screen.query_one("#calls", VirtualList).source.rows


async def select_call(pilot, app, number):
    """Put the Calls list's cursor on the call from ``number``, as the arrow keys would."""
    assert await wait_for(pilot, lambda: any(r.number == number for r in rows(app)))
    app.screen.query_one("#calls", VirtualList).cursor = [r.number for r in rows(app)].index(number)
    assert await wait_for(pilot, lambda: app.screen.selected is not None and app.screen.selected.number == number)


async def add_missed(service, number, minutes_ago):
    return await service.calls.create("incoming", {"fromNum": number, "answered": False, "duration": 0,
                                                  "calledAt": (NOW - timedelta(minutes=minutes_ago)).isoformat()})


async def test_a_caller_saved_as_a_contact_is_named_on_the_row_at_once(service):
    await add_missed(service, "0357110003", 1)
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        await select_call(pilot, app, "0357110003")
        assert app.screen.selected.who_text == "unknown"
        await pilot.press("S")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "fullname", "受付 新規")
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm))
        assert await wait_for(pilot, lambda: [r.who_text for r in rows(app) if r.number == "0357110003"] == ["受付 新規"])
        assert await wait_for(pilot, lambda: "受付 新規" in screen_text(app))  # the row and the detail pane
        assert app.screen.selected.number == "0357110003"  # the cursor stayed on the call
