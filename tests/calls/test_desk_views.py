"""The desk's views on the Calls screen: missed calls not yet called back first; from a
call open the person, or save an unknown number as a contact (the form pre-filled);
favourites and recently viewed people one key away (F8), kept per profile; the chart of
answered and missed calls per day."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from call_helpers import desk_app
from corpdir.service.calls import calls_to_return, daily_counts
from corpdir.state import State
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form
from tui_helpers import listed, screen_text, wait_for

NOW = datetime.now(timezone.utc).replace(microsecond=0)


async def select_call(pilot, app, number):
    """Put the Calls list's cursor on the call from ``number``, as the arrow keys would."""
    def rows():
        return app.screen.query_one("#calls", VirtualList).source.rows

    assert await wait_for(pilot, lambda: any(r.number == number for r in rows()))
    app.screen.query_one("#calls", VirtualList).cursor = [r.number for r in rows()].index(number)
    assert await wait_for(pilot, lambda: app.screen.selected is not None and app.screen.selected.number == number)


async def add_incoming(service, number, answered, minutes_ago):
    return await service.calls.create("incoming", {"fromNum": number, "answered": answered, "duration": 30 if answered else 0,
                                                  "calledAt": (NOW - timedelta(minutes=minutes_ago)).isoformat()})


async def test_missed_calls_not_yet_returned_come_first(service, demo_user):
    returned, waiting = "0357110001", "0357110002"
    await add_incoming(service, returned, False, 50)
    await service.calls.create("outgoing", {"toNum": "03-5711-0001", "answered": True, "duration": 60,
                                           "callingAt": (NOW - timedelta(minutes=40)).isoformat()})
    await add_incoming(service, waiting, False, 45)
    await add_incoming(service, demo_user.phoneNum, True, 1)  # the newest call, answered
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        assert await wait_for(pilot, listed(pilot, "#calls"))
        assert await wait_for(pilot, lambda: app.screen.query_one("#calls", VirtualList).source.rows[0].number == waiting)
        rows = app.screen.query_one("#calls", VirtualList).source.rows
        assert rows[0].outcome == "call back"
        assert [r.outcome for r in rows if r.number == returned] == ["missed"]  # called back at 40 min
        assert "call back" in screen_text(app)


async def test_open_the_caller_then_find_them_again_with_f8(service, demo_user):
    await add_incoming(service, demo_user.phoneNum, True, 1)
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        await select_call(pilot, app, demo_user.phoneNum)
        await pilot.press("O")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        assert await wait_for(pilot, lambda: demo_user.fullname in screen_text(app))
        await pilot.press("escape", "asterisk")
        assert await wait_for(pilot, lambda: app.desk_phone.people.favourites())
        await pilot.press("f8")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PeopleAtHandScreen")
        text = screen_text(app)
        assert "★ Favourites" in text and demo_user.fullname in text
        assert text.index(demo_user.fullname) < text.index("Recently viewed")  # a favourite, not twice
        await pilot.press("down", "enter")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
    profile_key = service.settings.profile().cache_path().stem
    kept = State().get(f"people_at_hand:{profile_key}")  # read back from the state file
    assert [r["id"] for r in kept["favourites"]] == [demo_user.userId]
    assert [r["id"] for r in kept["recent"]] == [demo_user.userId]


async def test_save_an_unknown_callers_number_as_a_contact(service):
    await add_incoming(service, "0357110003", False, 1)
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        await select_call(pilot, app, "0357110003")
        await pilot.press("S")
        form = await open_form(pilot, app)
        assert isinstance(form, ModelForm) and form.widget("phoneNum").value == "0357110003"


def test_every_missed_call_in_the_window_is_judged_on_its_own():
    """Two missed calls, the first called back: the second still waits, and a third older
    than the window is history (the window is the same for every call)."""
    class Call:
        def __init__(self, cid, number, when, answered=False):
            self.incomingCallHistoryId, self.fromNum, self.calledAt, self.answered = cid, number, when, answered

    class Out:
        def __init__(self, number, when):
            self.toNum, self.callingAt = number, when

    since = NOW - timedelta(days=14)
    incoming = [Call(1, "0357110011", NOW - timedelta(hours=5)), Call(2, "0357110012", NOW - timedelta(hours=4)),
                Call(3, "0357110013", NOW - timedelta(days=20))]
    outgoing = [Out("03-5711-0011", NOW - timedelta(hours=3))]
    assert calls_to_return(incoming, outgoing, "JP", since) == {2}


def test_daily_counts_cover_every_day_even_without_calls():
    class Call:
        def __init__(self, when, answered):
            self.calledAt, self.answered = when, answered

    today = date(2026, 11, 23)
    noon = datetime(2026, 11, 22, 12, 0).astimezone()
    days = daily_counts([Call(noon, True), Call(noon, False), Call(noon, False),
                         Call(noon - timedelta(days=40), True)], today)
    assert len(days) == 30 and days[-1] == (today, 0, 0) and days[-2] == (date(2026, 11, 22), 1, 2)
    assert sum(a + m for _, a, m in days) == 3  # 40 days ago is outside the chart


async def test_the_chart_counts_answered_and_missed(service):
    await add_incoming(service, "0357110004", True, 10)
    await add_incoming(service, "0357110005", False, 20)
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f3")
        assert await wait_for(pilot, listed(pilot, "#calls"))
        records = await service.calls.cached("incoming")
        recent = [r for r in records if r.calledAt and r.calledAt.astimezone().date() > date.today() - timedelta(days=30)]
        await pilot.press("t")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CallsChart")
        answered = sum(1 for r in recent if r.answered)
        assert await wait_for(pilot, lambda: f"{answered} answered, {len(recent) - answered} missed" in screen_text(app))
