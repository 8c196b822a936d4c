"""At the desk: a message taken on a ringing call reaches the person's mailbox (a real
SMTP server on loopback), the slips list (F6) shows whether it did and sends it again,
and whereabouts set with ``w`` on a person reach the service in one U11."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from call_helpers import cards
from corpdir.calls.events import CallEvent, CallState
from corpdir.config import CallsConfig
from corpdir.state import State
from corpdir.tui.app import CorpdirApp
from service.test_whereabouts import Recording
from service_fixtures import make_server, make_service
from smtp_helpers import MailServer
from calls.test_messages import settings_for
from tui_helpers import listed, wait_for

RANG = datetime(2025, 6, 15, 1, 46, tzinfo=timezone.utc)


@pytest.fixture
def mail_server(tmp_path):
    server = MailServer(tmp_path).start()
    yield server
    server.stop()


def desk(service, mail_server, tmp_path) -> CorpdirApp:
    app = CorpdirApp(service, state=State(), sync_on_start=False, calls=CallsConfig(ring_socket=False),
                     messages=settings_for(mail_server, tmp_path))
    app.desk_phone.courier.tls = mail_server.client_tls  # trusts the test server's own certificate
    return app


def ring(app, user) -> None:
    app.desk_phone.session.on_event(CallEvent("soft phone", "c1", CallState.RINGING, user.phoneNum, "", "201", RANG, records=True))


async def colleague(service):
    users = await service.people.window(None, limit=200)
    return next(u for u in users if u.phoneNum and u.email1 and u.fullname)


async def test_a_message_on_a_call_reaches_the_persons_mailbox(service, mail_server, tmp_path):
    person = await colleague(service)
    app = desk(service, mail_server, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        where = await message_form(pilot, app, person)
        assert f"Ctrl+S e-mails it to {person.fullname} <{person.email1}>. Esc cancels." in where
        assert "The note: " in where  # where the call's note goes, in the session's words (tests/calls/test_band.py)
        await pilot.press(*"見積の件", "enter")
        assert await wait_for(pilot, lambda: mail_server.received, tries=500)
        [mail] = mail_server.received
        assert mail.envelope_to == [person.email1] and "見積の件" in mail.message.get_body().get_content()
        family = person.fullname.split()[0]
        assert await wait_for(pilot, lambda: f"· e-mailed to {family}" in app.desk_phone.session.rings[0].note)

        await pilot.press("f6")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "SlipsScreen")
        table = app.screen.query_one("DataTable")
        assert table.row_count == 1 and str(table.get_row_at(0)[4]).startswith("e-mailed")


async def message_form(pilot, app, person) -> str:
    """A call from ``person`` rings and ``m`` opens the message form: what its hint says."""
    ring(app, person)
    assert await wait_for(pilot, lambda: cards(app))
    await pilot.press("f9", "m")
    assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MessageSlipForm")
    return str(app.screen.query_one("#slip-where").render())


async def slip_taken_then_f6(pilot, app, person, text: str) -> None:
    """A call from ``person`` rings, a message with ``text`` is taken on it, F6 lists it."""
    ring(app, person)
    assert await wait_for(pilot, lambda: cards(app))
    await pilot.press("f9", "m", *text, "enter")
    assert await wait_for(pilot, lambda: app.desk_phone.courier.book.all())
    await pilot.press("f6")
    assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "SlipsScreen")


async def test_a_slip_not_delivered_is_sent_once_from_f6(service, mail_server, tmp_path):
    person = await colleague(service)
    mail_server.stop()
    app = desk(service, mail_server, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await slip_taken_then_f6(pilot, app, person, "至急")
        table = app.screen.query_one("DataTable")
        assert await wait_for(pilot, lambda: str(table.get_row_at(0)[4]).startswith("not delivered yet"))
        mail_server.start()
        await pilot.press("r")
        assert await wait_for(pilot, lambda: str(table.get_row_at(0)[4]).startswith("e-mailed"), tries=500)
        await pilot.press("r")  # delivered: not sent again
        await app.workers.wait_for_complete()
        assert len(mail_server.received) == 1


async def test_whereabouts_set_on_a_person_reach_the_service(tmp_path):
    server = make_server()
    transport = Recording(server)
    service = make_service(server, api_key="demo-admin", transport=transport)
    await service.sync.run()
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            assert await wait_for(pilot, listed(pilot, "#users"), tries=300)
            person = app.screen.selected
            await pilot.press("w")
            assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "WhereaboutsPicker")
            await pilot.press("down", "tab", *"15:00戻り", "enter")
            assert await wait_for(pilot, lambda: transport.bodies, tries=300)
            assert transport.bodies == [{"destinations": [
                {"loginId": person.loginId, "destinationId": 1, "destinationName": "外出 15:00戻り"}]}]
            assert server.state.storage.get_destination(person.userId)["destinationName"] == "外出 15:00戻り"
            title = app.screen.query_one("#user-title")
            assert await wait_for(pilot, lambda: "◆ 外出 15:00戻り" in "".join(map(str, title._renderables)))
    finally:
        await service.close()
        server.state.storage.close()


@pytest.mark.parametrize(("keymap", "send"), [({}, "Ctrl+S"), ({"slip.send": "ctrl+e"}, "Ctrl+E")])
async def test_without_a_mail_server_the_form_says_which_key_keeps_the_slip(service, tmp_path, keymap, send):
    """The demo's desk has no mail server: the form has no key bar, so its hint is the only
    place that says how the slip is kept, with the user's own key when they chose one."""
    person = await colleague(service)
    app = CorpdirApp(service, state=State(), sync_on_start=False, calls=CallsConfig(ring_socket=False), keymap=keymap)
    async with app.run_test(size=(120, 36)) as pilot:
        where = await message_form(pilot, app, person)
        assert f"No mail server set: {send} keeps it as a slip for {person.fullname} (F6). Esc cancels." in where
        await pilot.press(*"見積の件", send.lower())
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ != "MessageSlipForm")
        [slip] = app.desk_phone.courier.book.all()
        assert slip.text == "見積の件"


async def test_f6_shows_why_a_slip_was_not_delivered_on_a_line_of_its_own(service, tmp_path):
    person = await colleague(service)
    app = CorpdirApp(service, state=State(), sync_on_start=False, calls=CallsConfig(ring_socket=False))
    async with app.run_test(size=(120, 36)) as pilot:
        await slip_taken_then_f6(pilot, app, person, "見積の件")
        detail = app.screen.query_one("#slips-detail")
        assert await wait_for(pilot, lambda: "見積の件" in str(detail.render()))
        lines = str(detail.render()).splitlines()
        assert lines[0].endswith("見積の件") and lines[1].startswith("not delivered: no mail server is set")
        assert "\ufffd" not in str(detail.render())
