"""One way to write a number on screen: the lists, the detail panes, the Calls screen and
the Lookup screen show a number as people in the tenant's country write it (national
format at home, international for a foreign number), however the directory stores it;
forms and exports keep the stored form (docs/desk.md)."""

from __future__ import annotations

import pytest

from corpdir.phone import for_display
from corpdir.service.backend import backend_of
from corpdir.service.calls import CallDesk
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for

STORED = {"phoneNum": "+817037937743", "mobileNum": "07014467971", "faxNum": "+1 650 253 0000"}
SHOWN = {"phoneNum": "070-3793-7743", "mobileNum": "070-1446-7971", "faxNum": "+1 650-253-0000"}


@pytest.mark.parametrize(("stored", "region", "shown"), [
    ("07014467971", "JP", "070-1446-7971"),
    ("+817037937743", "JP", "070-3793-7743"),
    ("+81-90-2380-0123", "JP", "090-2380-0123"),
    ("０３ー１２３４ー５６７８", "JP", "03-1234-5678"),
    ("+1 650 253 0000", "JP", "+1 650-253-0000"),
    ("+81 3-1234-5678", "US", "+81 3-1234-5678"),
    ("2251", "JP", "2251"),  # an extension stays as it is
    ("not a number", "JP", "not a number"),
])
def test_the_display_rule(stored, region, shown):
    assert for_display(stored, region) == shown


async def find_contact(pilot, contact_id: int, word: str) -> None:
    """On the Contacts screen, search ``word`` until the contact is the highlighted row."""
    await pilot.press("f2")
    contacts = pilot.app.screen.query_one("#contacts", VirtualList)
    assert await wait_for(pilot, lambda: contacts.highlighted is not None)
    await pilot.press("slash", *word)
    assert await wait_for(pilot, lambda: contacts.highlighted is not None and contacts.highlighted.contactId == contact_id)


async def find_call(pilot, call_id: int) -> None:
    """On the Calls screen, with the incoming call ``call_id`` (the newest) highlighted."""
    await pilot.press("f3")
    calls = pilot.app.screen.query_one("#calls", VirtualList)
    assert await wait_for(pilot, lambda: calls.highlighted is not None
                          and calls.highlighted.record.incomingCallHistoryId == call_id)


async def test_a_contacts_numbers_read_alike_in_the_list_and_the_pane(make_app, service):
    backend_of(service).store.put_contacts([
        {"contactId": 900101, "folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "Zephyr Numberwright",
         "companyName": "Zephyr", **STORED},
    ])
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await find_contact(pilot, 900101, "Numberwright")
        assert await wait_for(pilot, lambda: "Fax" in screen_text(app))  # the pane shows the contact
        text = screen_text(app)
        row = next(line for line in text.split("Zephyr Numberwright") if "Zephyr" in line)
        assert SHOWN["phoneNum"] in row  # the list's Phone column
        for field in STORED:  # the pane: every number by the same rule, none as stored
            assert SHOWN[field] in text and STORED[field] not in text, (field, text)


async def test_the_calls_list_and_detail_write_the_caller_as_the_ring_card_does(make_app, service):
    backend_of(service).store.put_calls("incoming", [
        {"incomingCallHistoryId": 990101, "fromNum": "+817037937743", "answered": False, "duration": 0,
         "calledAt": "2099-01-01T00:00:00Z"},
    ])
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await find_call(pilot, 990101)
        assert await wait_for(pilot, lambda: "Number 070-3793-7743" in screen_text(app))
        text = screen_text(app)
        assert text.count("070-3793-7743") >= 2 and "+817037937743" not in text  # the row and the pane
        caller = await CallDesk(service).caller("+817037937743")
        assert caller.formatted == "070-3793-7743"  # what the ring card shows


async def test_lookup_writes_the_numbers_it_was_asked_by_the_same_rule(make_app, service):
    user = next(u for u in await service.people.window(None, limit=50) if u.phoneNum)
    asked = "+81" + user.phoneNum.replace("-", "")[1:]
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        await pilot.press(*asked, "enter")
        results = app.screen.query_one("#results", VirtualList)
        assert await wait_for(pilot, lambda: results.highlighted is not None and user.fullname in screen_text(app))
        text = screen_text(app)
        assert for_display(user.phoneNum) == user.phoneNum  # the demo stores them as written at home
        lists = text.split(" asked · ")[1].split("Asked")[0]  # below the input box, above the pane's "Asked"
        assert asked not in lists and lists.count(user.phoneNum) >= 2  # the recent list and the results
