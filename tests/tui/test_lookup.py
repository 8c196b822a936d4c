"""The lookup screen: who is this number, however it is written; recent lookups kept."""

import pytest
from textual import events

from corpdir.phone import split_numbers

from corpdir.tui.screens.detail_screen import DetailScreen
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


def test_numbers_are_split_on_lines_and_commas():
    assert split_numbers("+81 3-1234-5678\n090 1111 2222, 03-1\n\n 03-1 ") == ["+81 3-1234-5678", "090 1111 2222", "03-1"]


@pytest.mark.parametrize("typed,numbers", [
    ("03-7058-3199 2251 +81756782019 999", ["03-7058-3199", "2251", "+81756782019", "999"]),  # spaces between numbers
    ("090 1111 2222", ["090 1111 2222"]),  # spaces inside one number
    ("0120 123 456", ["0120 123 456"]),
    ("+81 3 1234 5678  090-1111-2222", ["+81 3 1234 5678", "090-1111-2222"]),  # the shortest run that is a number
    ("03 1234 5678 9012", ["03 1234 5678", "9012"]),
    ("2251 03 1234 5678", ["2251", "03 1234 5678"]),  # an extension does not start a spaced number
    ("03-1234-5678、090-1111-2222；2251\t1234", ["03-1234-5678", "090-1111-2222", "2251", "1234"]),  # Japanese separators, tabs
    ("2251 2251 03-1234-5678", ["2251", "03-1234-5678"]),  # repeats once
    ("田中 太郎 2251", ["田中 太郎", "2251"]),  # words apart from numbers (the lookup says: not a number)
    ("0756784245 2310 ０３６４４０２９７９ 999-9999 abc", ["0756784245", "2310", "0364402979", "999-9999", "abc"]),
])
def test_spaces_separate_numbers_only_where_they_cannot_be_inside_one(typed, numbers):
    assert split_numbers(typed) == numbers


async def test_number_written_differently_is_found_unknown_is_not_and_recent_survives(make_app, service):
    user = next(u for u in await service.people.window(None, limit=200) if u.phoneNum and u.phoneNum.startswith("03-"))
    written_otherwise = "+81 3-" + user.phoneNum[3:]
    unknown = "03-0000-0009"
    app = make_app()
    async with app.run_test(size=(150, 40)) as pilot:
        await pilot.press("f4")
        await pilot.press("slash", *f"{written_otherwise}, {unknown}", "enter")  # '/' when the box has focus already
        results = app.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.row_count == 2 and user.fullname in screen_text(app))
        text = screen_text(app)
        assert "not found" in text and unknown in text and "2 asked · 1 found · 1 not found" in text
        assert app.state.recent_lookups(service.settings.profile().cache_path().stem)[:2] == [written_otherwise, unknown]
        assert await wait_for(pilot, lambda: "Directory record" in screen_text(app))  # the detail pane: the whole record

    again = make_app()  # a new run, the same state file
    async with again.run_test(size=(150, 40)) as pilot:
        await pilot.press("f4")
        recent = again.screen.query_one("#recent", VirtualList)
        assert await wait_for(pilot, lambda: recent.row_count >= 2 and recent.row(0) == written_otherwise)
        assert user.phoneNum in screen_text(again) and unknown in screen_text(again)  # written as at home
        recent.focus()
        await pilot.press("enter")  # the first recent lookup runs again
        results = again.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.row_count == 1 and user.fullname in screen_text(again))


async def test_narrow_shows_data_literally_and_opens_details_full_screen(make_app, service):
    backend_of(service).store.put_contacts([
        {"contactId": 900011, "folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "[link=file:///etc/passwd]x",
         "companyName": "[red]x[/red]\x1b]52;c;SGk=\x07", "phoneNum": "03-0000-0042"},
    ])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        numbers = app.screen.query_one("#numbers")
        numbers.post_message(events.Paste("0300000042\r\n03-0000-0009\n"))  # a pasted column of numbers
        assert await wait_for(pilot, lambda: numbers.value == "0300000042, 03-0000-0009")
        await pilot.press("enter")
        results = app.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.highlighted is not None and results.highlighted.answer.found)
        assert not app.screen.query_one("#detail").display
        assert "[link=file:" in screen_text(app)  # the list cuts the long name with …
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        assert await wait_for(pilot, lambda: "Contact record" in screen_text(app))
        text = screen_text(app)
        assert "[link=file:///etc/passwd]x" in text and "[red]x[/red]\ufffd]52;c;SGk=\ufffd" in text


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_mixed_entry_is_answered_row_by_row_beside_the_recent_numbers(make_app, service, size):
    user = next(u for u in await service.people.window(None, limit=200) if u.phoneNum and u.extensionNum)
    wide = "".join(chr(ord(ch) + 0xFEE0) if ch.isdigit() else "ー" if ch == "-" else ch for ch in user.phoneNum)
    typed = f"0756784245 {user.extensionNum} {wide} 999-9999 abc"
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("f4")
        app.screen.query_one("#numbers").insert_text_at_cursor(typed)
        await pilot.press("enter")
        results = app.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.row_count == 5)
        rows = [results.row(i) for i in range(5)]
        assert [r.query for r in rows] == ["0756784245", user.extensionNum, user.phoneNum, "999-9999", "abc"]
        assert [r.name for r in rows] == ["not found", user.fullname, user.fullname, "not found", "not a number"]
        assert "5 asked · 2 found · 2 not found · 1 not a number" in screen_text(app)
        recent = app.screen.query_one("#recent", VirtualList)
        assert await wait_for(pilot, lambda: recent.row_count >= 4)
        # the recent numbers stand beside their answers, in the same order
        assert [recent.row(i) for i in range(4)] == [r.query for r in rows[:4]]
        text = screen_text(app)
        assert "not a number" in text and user.fullname in text
