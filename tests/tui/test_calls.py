"""The calls screen: who called, answered or missed, incoming and outgoing."""

from corpdir.tui.screens.detail_screen import DetailScreen
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


def rows(lst: VirtualList) -> list:
    """The rows the list has fetched (a page of 100 at a time: what is on screen and near it)."""
    return [r for r in (lst.row(i) for i in range(lst.row_count)) if r is not None]


async def test_names_from_record_and_cache_missed_filter_and_outgoing(make_app, service):
    user = next(u for u in await service.people.window(None, limit=200) if u.phoneNum and u.phoneNum.startswith("03-"))
    written_otherwise = "+81 3 " + user.phoneNum[3:].replace("-", " ")
    assert (await service.identify_cached([written_otherwise]))[written_otherwise][0]["userId"] == user.userId
    backend_of(service).store.put_calls("incoming", [  # newest of all; the records name no one
        {"incomingCallHistoryId": 990001, "fromNum": written_otherwise, "answered": False, "duration": 0,
         "calledAt": "2099-01-01T00:00:00Z"},
        {"incomingCallHistoryId": 990002, "fromNum": "099-0000-0000", "answered": True, "duration": 75,
         "calledAt": "2098-01-01T00:00:00Z"},
    ])
    named = next(c for c in await service.calls.cached("incoming") if c.fromNumContact and c.fromNumContact.displayName)
    app = make_app()
    async with app.run_test(size=(150, 40)) as pilot:
        await pilot.press("f3")
        calls = app.screen.query_one("#calls", VirtualList)
        assert await wait_for(pilot, lambda: calls.row_count > 2 and rows(calls))
        # missed calls not yet called back come first (the newest, 990001, heads the list), so the
        # answered 990002 is found by its id
        by_id = {r.record.incomingCallHistoryId: r for r in rows(calls)}
        first, second = calls.row(0), by_id[990002]
        assert first.record.incomingCallHistoryId == 990001
        assert (first.name, first.who_source) == (user.fullname, "cache")
        assert (second.who_text, second.who_source) == ("unknown", "")
        text = screen_text(app)
        assert user.fullname in text and "unknown" in text and "1:15" in text and "missed" in text
        assert named.fromNumContact.displayName in text  # named by the service's own record

        await pilot.press("a")  # answered only
        assert await wait_for(pilot, lambda: rows(calls) and all(r.record.answered for r in rows(calls)))
        await pilot.press("a")  # missed only
        assert await wait_for(pilot, lambda: rows(calls) and all(r.record.answered is False for r in rows(calls)))
        assert "missed only" in screen_text(app) and "answered" not in " ".join(r.outcome for r in rows(calls))

        await pilot.press("o")
        assert await wait_for(pilot, lambda: rows(calls) and all(r.direction == "outgoing" for r in rows(calls)))
        outgoing_missed = [c for c in await service.calls.cached("outgoing", answered=False)]
        assert calls.row_count == len(outgoing_missed) and "Outgoing" in screen_text(app)
        await pilot.press("r")  # oldest first
        assert await wait_for(pilot, lambda: "oldest first" in screen_text(app) and len(rows(calls)) == len(outgoing_missed)
                              and rows(calls)[0].at <= rows(calls)[-1].at)


async def test_narrow_shows_data_literally_and_opens_details_full_screen(make_app, service):
    backend_of(service).store.put_calls("incoming", [
        {"incomingCallHistoryId": 990003, "fromNum": "03-0000-0002", "answered": False, "duration": 0,
         "calledAt": "2099-01-01T00:00:00Z", "note": "[red]x[/red]",
         "fromNumContact": {"displayName": "[link=file:///etc/passwd]x", "companyName": "evil\x1b]52;c;SGk=\x07corp"},
         "voicemail": {"urlBrowser": "https://vm.example/[b]1[/b]"}},
    ])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        calls = app.screen.query_one("#calls", VirtualList)
        assert await wait_for(pilot, lambda: calls.highlighted is not None and calls.highlighted.record.incomingCallHistoryId == 990003)
        assert not app.screen.query_one("#detail").display
        assert "[link=file:///" in screen_text(app)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        assert await wait_for(pilot, lambda: "https://vm.example/[b]1[/b]" in screen_text(app))
        text = screen_text(app)
        assert "[link=file:///etc/passwd]x" in text and "[red]x[/red]" in text and "evil\ufffd]52;c;SGk=\ufffdcorp" in text
