"""The Calls screen at the desk: a caller saved as a contact (S) is named on their row at
once; a missed call can be marked handled by hand (h), leaving "call back"."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from call_helpers import desk_app
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, save, type_into
from tui_helpers import Notifications, screen_text, wait_for

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


def outcome_of(app, number):
    return [r.outcome for r in rows(app) if r.number == number]


async def test_a_missed_call_marked_handled_leaves_call_back_and_stays_so(service):
    waiting, other = "0357110004", "0357110005"
    await add_missed(service, waiting, 30)
    await add_missed(service, other, 20)
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        assert await wait_for(pilot, lambda: outcome_of(app, waiting) == ["call back"])
        await select_call(pilot, app, waiting)
        await pilot.press("h")
        assert await wait_for(pilot, lambda: outcome_of(app, waiting) == ["handled"])
        assert outcome_of(app, other) == ["call back"] and rows(app)[0].number == other  # call back first
        assert "handled" in screen_text(app)
    again = desk_app(service)  # a new run: the mark is kept (local state, this profile)
    async with again.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        assert await wait_for(pilot, lambda: outcome_of(again, waiting) == ["handled"])
        await select_call(pilot, again, waiting)
        await pilot.press("h")  # undone: waiting again
        assert await wait_for(pilot, lambda: outcome_of(again, waiting) == ["call back"])


async def test_only_a_missed_call_can_be_marked_handled(service):
    answered = "0357110008"
    await service.calls.create("incoming", {"fromNum": answered, "answered": True, "duration": 30,
                                           "calledAt": (NOW - timedelta(minutes=5)).isoformat()})
    notes = Notifications()
    app = desk_app(service)
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        await pilot.press("f3")
        await select_call(pilot, app, answered)
        await pilot.press("h")
        assert await wait_for(pilot, lambda: notes.said("Only a missed incoming call can be marked handled"))
        assert outcome_of(app, answered) == ["answered"]


def test_marking_a_call_handled_covers_the_earlier_missed_calls_from_its_number():
    """As a call back would: the missed calls before it are done; a later one still waits."""
    from types import SimpleNamespace

    from corpdir.service.calls import calls_to_return

    def missed(call_id, number, minutes_ago):
        return SimpleNamespace(incomingCallHistoryId=call_id, fromNum=number, answered=False,
                               calledAt=NOW - timedelta(minutes=minutes_ago))

    incoming = [missed(1, "03-5711-0006", 50), missed(2, "0357110006", 40), missed(3, "0357110006", 10),
                missed(4, "0357110007", 45)]
    assert calls_to_return(incoming, [], "JP") == {1, 2, 3, 4}
    assert calls_to_return(incoming, [], "JP", handled=frozenset({2})) == {3, 4}
