"""What the detail panes say: the spec's enumerations by their labels ('Regular user', not
REGULAR_USER), no ordering key or record id a reader cannot use, addresses broken only at
their parts (a dotted number such as 127.0.0.1 never), and no link that cannot open."""

from __future__ import annotations

import pytest
from rich.console import Console

from corpdir.service.backend import backend_of
from corpdir.tui.text import Wrapped
from corpdir.tui.widgets.call_detail import CallDetail
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from tui.test_number_display import find_call, find_contact
from service_fixtures import BASE_URL, make_server, make_service
from tui_helpers import wait_for

VOICEMAIL = "https://voicemail.corpo-denki.example/messages/2099/01/01/incoming-0001?listen=1&player=browser&lang=ja"


def painted(widget) -> list[str]:
    """Every line the widget paints (a line-API pane: all of its lines, also those below the fold)."""
    height = len(widget._strips) if hasattr(widget, "_strips") else widget.size.height
    return ["".join(segment.text for segment in widget.render_line(y)).rstrip() for y in range(height)]


def value_of(lines: list[str], label: str) -> str:
    """The value beside ``label`` in a two-column pane, its wrapped lines joined."""
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(label + " "))
    column = lines[start].index(label) + len(label)
    while lines[start][column] == " ":
        column += 1
    out = [lines[start][column:].strip()]
    for line in lines[start + 1:]:
        if line[:column].strip():
            break
        out.append(line[column:].strip())
    return "\n".join(part for part in out if part)


def assert_broken_at_parts(wrapped: str, whole: str) -> None:
    assert wrapped.replace("\n", "") == whole
    at = 0
    for line in wrapped.split("\n")[:-1]:
        at += len(line)
        before, after = whole[at - 1], whole[at]
        assert not (before.isalnum() and after.isalnum()), wrapped  # never mid-word
        assert not (before.isdigit() and after == "." and whole[at + 1].isdigit()), wrapped  # never in 127.0.0.1


@pytest.mark.parametrize("width", range(16, 40))  # the value column of a pane at 80x24 and up
def test_an_address_breaks_only_at_its_parts(width):
    console = Console(width=width, legacy_windows=False)
    for address in (VOICEMAIL, "http://127.0.0.1:51611/users/12345", "asuka.aoki@corpo-denki.example"):
        lines = ["".join(s.text for s in line).rstrip() for line in console.render_lines(Wrapped(address), new_lines=False)]
        assert_broken_at_parts("\n".join(line for line in lines if line), address)


async def test_a_persons_type_is_worded_and_the_sort_score_left_out(make_app, service):
    person = next(u for u in await service.people.window(None, limit=50) if u.userType == "REGULAR_USER" and u.sortScore)
    app = make_app()
    async with app.run_test(size=(160, 60)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        users.cursor = next(i for i in range(users.row_count) if users.row(i).userId == person.userId)
        body = app.screen.query_one(UserDetail).query_one("#user-body")
        assert await wait_for(pilot, lambda: any(line.lstrip().startswith("Type ") for line in painted(body)))
        lines = painted(body)
        assert value_of(lines, "Type") == "Regular user"
        assert not any("Sort score" in line or str(person.sortScore) in line for line in lines)


async def test_a_contacts_ocr_fields_are_worded(make_app, service):
    backend_of(service).store.put_contacts([
        {"contactId": 900201, "folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "Zephyr Ocrwright",
         "ocrStatus": "CAN_SEND", "ocrType": "OPERATOR", "ocrResult": "FAILURE"},
    ])
    app = make_app()
    async with app.run_test(size=(160, 60)) as pilot:
        await find_contact(pilot, 900201, "Ocrwright")
        fields = app.screen.query_one(ContactDetail).query_one("#contact-fields")
        assert await wait_for(pilot, lambda: any("OCR status" in line for line in painted(fields)))
        lines = painted(fields)
        assert (value_of(lines, "OCR status"), value_of(lines, "OCR type"), value_of(lines, "OCR result")) == \
            ("Not sent", "By an operator", "Could not be read")


async def test_a_calls_detail_words_its_type_and_breaks_the_voicemail_link_at_its_parts(make_app, service):
    backend_of(service).store.put_calls("incoming", [
        {"incomingCallHistoryId": 990201, "fromNum": "03-0000-0003", "answered": False, "duration": 0,
         "calledAt": "2099-01-01T00:00:00Z", "voicemail": {"urlBrowser": VOICEMAIL},
         "fromNumContact": {"displayName": "受付 代表", "phoneNumContactType": "SHARED_NUMBER", "userId": 424242}},
    ])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await find_call(pilot, 990201)
        await pilot.press("enter")
        detail = app.screen.query_one(CallDetail)
        fields = detail.query_one("#call-fields")
        assert await wait_for(pilot, lambda: any("Voicemail" in line for line in painted(fields)))
        lines = painted(fields)
        assert value_of(lines, "Type") == "Shared number"
        assert not any("424242" in line or "User ID" in line for line in lines)  # a record id tells the desk nothing
        assert_broken_at_parts(value_of(lines, "Voicemail"), VOICEMAIL)
        assert "\n" in value_of(lines, "Voicemail")  # it was wider than the pane


@pytest.mark.parametrize(("public_url", "shown"), [
    ("http://corpdir.test", False),  # the service's own API: a browser gets 401 without the key
    ("https://people.corpo-denki.example", True),  # a page elsewhere: the link is the service's to vouch for
])
async def test_a_details_link_is_shown_only_where_a_browser_can_open_it(public_url, shown):
    assert BASE_URL.startswith("http://corpdir.test/")
    service = make_service(make_server(public_url=public_url))
    await service.sync.run()
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    app = CorpdirApp(service, state=State(), sync_on_start=False)
    try:
        async with app.run_test(size=(160, 80)) as pilot:
            users = app.screen.query_one("#users", VirtualList)
            assert await wait_for(pilot, lambda: users.highlighted is not None)
            body = app.screen.query_one(UserDetail).query_one("#user-body")
            assert await wait_for(pilot, lambda: any(line.lstrip().startswith("Type ") for line in painted(body)))
            assert users.highlighted.contactDetailsUrl.startswith(public_url)
            assert any("Details URL" in line for line in painted(body)) is shown
    finally:
        await service.close()
