"""The pop-up as a receptionist meets it: over a form without taking its keys, stacked
when several ring, the keys on a card (message, save as contact, dismiss), nothing that
writes in a kiosk, and a malformed event skipped without harm."""

from __future__ import annotations

import asyncio
import logging
import socket
from datetime import datetime, timedelta

from textual.widgets import Input

from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.calls.ring_socket import ring, runtime_dir
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.ring_card import RingCard
from form_helpers import open_form, save, type_into
from tui_helpers import Notifications, screen_text, wait_for


async def ring_in(number: str, **fields: str) -> None:
    sent, problems = await asyncio.to_thread(ring, {"number": number, **fields})
    assert sent == 1, problems


async def test_a_ring_during_typing_leaves_the_keys_with_the_form(service, demo_user):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        await pilot.press("f3")
        await pilot.press("n")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "note", "Tana")
        await ring_in(demo_user.phoneNum)
        assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app))
        await pilot.press(*"ka bcd")  # b, c, d would be the card's keys: they are the form's
        assert form.widget("note").value == "Tanaka bcd"
        assert isinstance(app.focused, Input) and isinstance(app.screen, ModelForm)
        assert len(cards(app)) == 1
        await pilot.press("f9")  # now to the pop-up
        await pilot.press("d")
        assert await wait_for(pilot, lambda: not cards(app))
        assert form.widget("note").value == "Tanaka bcd"


async def test_several_rings_stack_newest_first(service):
    users = [u for u in await service.people.window(None, limit=60) if u.phoneNum][:3]
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        for user in users:
            await ring_in(user.phoneNum)
        assert await wait_for(pilot, lambda: len(cards(app)) == 3)
        assert [c.ring.caller.record.userId for c in cards(app)] == [u.userId for u in reversed(users)]
        await pilot.press("f2")  # another screen: the stack follows
        assert await wait_for(pilot, lambda: len(cards(app)) == 3 and users[0].fullname in card_text(app))


async def test_a_call_keeps_its_card_and_photo_while_calls_come_and_go_beside_it(service, monkeypatch):
    """Cards are held by call, not by place: a new call in front, or the front one
    dismissed, leaves the others' cards as they were (their photos were cleared and
    fetched again: the pop-up flickered)."""
    first, second, third = [u for u in await service.people.window(None, limit=60) if u.phoneNum][:3]
    asked: list[int] = []  # whose photo a card cleared and asked for
    load_photo = RingCard.load_photo

    def counted(card: RingCard, ring):
        asked.append(ring.caller.record_id)
        return load_photo(card, ring)

    monkeypatch.setattr(RingCard, "load_photo", counted)

    def shown() -> list[int]:  # the callers from left to right, as the receptionist sees them
        return [c.ring.caller.record.userId for c in sorted(cards(app), key=lambda c: c.region.x)]

    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        for n, user in enumerate((first, second, third), 1):
            await ring_in(user.phoneNum)
            assert await wait_for(pilot, lambda: len(cards(app)) == n and user.userId in asked)
        assert shown() == [third.userId, second.userId, first.userId]  # newest first
        card_of = {c.ring.caller.record.userId: c for c in cards(app)}
        await pilot.press("f9", "d")  # the newest call, in front, is dismissed
        assert await wait_for(pilot, lambda: len(cards(app)) == 2)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert shown() == [second.userId, first.userId]
        assert sorted(asked) == sorted([first.userId, second.userId, third.userId])  # each photo once
        assert all(card_of[c.ring.caller.record.userId] is c for c in cards(app))


async def test_a_message_and_an_unknown_number_saved_as_a_contact(service, demo_user):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        await ring_in("0357001234", display_name="ヤマモト商事")
        assert await wait_for(pilot, lambda: "Unknown number" in card_text(app))
        assert "03-5700-1234" in card_text(app) and "ヤマモト商事" in card_text(app)
        await pilot.press("f9", "m")  # an unknown caller: the form asks whom the message is for
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MessageSlipForm")
        assert app.screen.query_one("#slip-caller-name").value == "ヤマモト商事"
        await pilot.press(*(demo_user.fullnameKana or "").split()[0], "enter")  # the first match, by reading
        assert await wait_for(pilot, lambda: app.screen.recipient is not None)
        family = (app.screen.recipient.fullname or "").split()[0]
        app.screen.query_one("#slip-text").focus()
        await pilot.press(*"見積の件", "enter")
        assert await wait_for(pilot, lambda: f"Message: 折返し希望 見積の件 · for {family}" in card_text(app))
        [slip] = app.desk_phone.courier.book.all()  # kept as a slip: no mail server is set here
        assert slip.caller_name == "ヤマモト商事" and slip.text == "見積の件" and "smtp_host" in slip.status
        app.set_focus(cards(app)[0])
        await pilot.press("s")
        form = await open_form(pilot, app)
        assert form.widget("phoneNum").value == "0357001234" and form.widget("fullname").value == "ヤマモト商事"
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm), tries=500)
        await ring_in("03-5700-1234")  # the next call from it: a known contact
        assert await wait_for(pilot, lambda: any(c.ring.caller.kind == "contact" for c in cards(app)))


async def test_a_kiosk_card_offers_nothing_that_writes(service, demo_user):
    app = desk_app(service, read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        await ring_in("0357009999")
        assert await wait_for(pilot, lambda: "Unknown number" in card_text(app))
        assert "message" not in card_text(app) and "save" not in card_text(app) and "copy" in card_text(app)
        await pilot.press("f9")
        assert isinstance(app.focused, RingCard)
        offered = {a.binding.action for a in app.screen.active_bindings.values() if a.enabled and a.node is app.focused}
        assert offered and not offered & RingCard.WRITES  # keys, palette: the card offers no write either
        await pilot.press("m", "s")
        await pilot.pause()
        assert app.screen.__class__.__name__ not in ("MessageSlipForm", "ModelForm")
        assert app.desk_phone.session.recorder is None  # nothing is ever written from a kiosk


async def test_a_malformed_ring_is_skipped_and_the_next_one_shows(service, demo_user, caplog):
    caplog.set_level(logging.WARNING, logger="corpdir.calls")
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        [path] = list(runtime_dir().glob("ring-*.sock"))

        def send_garbage() -> bytes:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.connect(str(path))
                sock.sendall(b"{not json\n")
                return sock.recv(100)

        assert (await asyncio.to_thread(send_garbage)).startswith(b"error: not JSON")
        assert app.desk_phone.session.hub.status["ring"].skipped == 1
        assert "call feed ring: skipped a malformed event" in caplog.text and "{not json" in caplog.text
        await ring_in(demo_user.phoneNum)
        assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app))


async def test_the_card_shows_the_last_calls_from_the_number_the_one_just_recorded_first(service):
    """Written differently in the history ('03-5700-1111') than the phone sends it, and a
    call recorded while the TUI runs is on the next ring's card."""
    def shown(at: str) -> str:
        return datetime.fromisoformat(at).astimezone().strftime("%m/%d %H:%M")  # not today: with its date

    today = datetime.now().astimezone().replace(second=0, microsecond=0)
    first = (today - timedelta(days=3)).replace(hour=9, minute=15).isoformat()  # the newest in the demo history
    second = (today - timedelta(days=2)).replace(hour=10, minute=30).isoformat()
    await service.calls.create("incoming", {"fromNum": "03-5700-1111", "answered": False, "calledAt": first})
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        await ring_in("0357001111")
        assert await wait_for(pilot, lambda: "Unknown number" in card_text(app))
        assert f"Last: {shown(first)} missed" in card_text(app)
        await pilot.press("f9", "d")
        assert await wait_for(pilot, lambda: not cards(app))
        await service.calls.create("incoming", {"fromNum": "0357001111", "answered": True, "calledAt": second})
        await ring_in("+81 3 5700 1111")
        assert await wait_for(pilot, lambda: "Last:" in card_text(app))
        assert f"Last: {shown(second)} answered · {shown(first)} missed" in card_text(app)


async def test_enter_opens_the_caller_c_copies_and_with_no_dialer_b_copies_and_shows_a_tel_link(service, demo_user):
    notes = Notifications()
    app = desk_app(service)  # no [calls.dialer]
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        assert await feed_ready(pilot, "ring")
        await ring_in(demo_user.phoneNum)
        assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app))
        await pilot.press("f9", "c")
        assert await wait_for(pilot, lambda: app.clipboard == demo_user.phoneNum)
        app.copy_to_clipboard("")
        await pilot.press("b")
        tel = "tel:" + "".join(c for c in demo_user.phoneNum if c.isdigit() or c == "+")
        assert await wait_for(pilot, lambda: notes.said(f"No dialer configured: copied the number. {tel}"))
        assert app.clipboard == demo_user.phoneNum
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        assert await wait_for(pilot, lambda: demo_user.email1 in screen_text(app))  # the details, not the card
        assert [ref.id for ref in app.desk_phone.people.recent()] == [demo_user.userId]  # F8 finds them again


async def test_a_company_line_names_the_company_and_a_withheld_caller_is_withheld(service):
    """The card says what every other surface says (corpdir.service.identify): a company's
    main line on many contacts is the company, "shared by N", nothing to save; a withheld
    caller is "Number withheld", with neither call back nor save."""
    contacts = await service.contacts.window(None, limit=1000)  # the shared folders and the user's own
    by_line: dict[str, list] = {}
    for contact in contacts:
        if contact.companyDelegatedPhoneNum:
            by_line.setdefault(contact.companyDelegatedPhoneNum, []).append(contact)
    line = max(by_line, key=lambda n: len(by_line[n]))
    company = by_line[line][0].companyName
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        await ring_in(line)
        assert await wait_for(pilot, lambda: company in card_text(app))
        text = card_text(app)
        assert f"shared by {len(by_line[line])}" in text and "Unknown number" not in text
        assert "save" not in text and "open" not in text  # no record to open, nobody to save
        for card in cards(app):
            app.desk_phone.session.dismiss(card.ring)
        await ring_in("anonymous")
        assert await wait_for(pilot, lambda: "Number withheld" in card_text(app))
        text = card_text(app)
        assert "Unknown number" not in text and "save" not in text and "call" not in text
