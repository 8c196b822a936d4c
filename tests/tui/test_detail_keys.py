"""The full-screen detail (80x24) answers the desk's keys as the list does: F5 and b call
the record shown, c and e copy its number and e-mail, from a person, a contact or a call."""

from __future__ import annotations

from corpdir.spec.phone_fields import first_phone
from corpdir.tui.screens.detail_screen import DetailScreen
from tui_helpers import Notifications, listed, wait_for


async def open_full_screen(pilot, app, key: str, list_id: str):
    """The first row of the screen under ``key``, opened with Enter on a narrow terminal."""
    await pilot.press(key)
    assert await wait_for(pilot, listed(pilot, list_id))
    assert await wait_for(pilot, lambda: app.screen.selected is not None)
    chosen = app.screen.selected
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
    return chosen


async def open_call_full_screen(pilot, app, number: str) -> None:
    """F3, the call from ``number`` highlighted, Enter: its details full screen (80x24)."""
    await pilot.press("f3")
    assert await wait_for(pilot, listed(pilot, "#calls"))
    assert await wait_for(pilot, lambda: app.screen.selected is not None and app.screen.selected.number == number)
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))


async def test_f5_c_and_e_on_a_persons_full_screen_detail(make_app):
    notes = Notifications()
    app = make_app()
    async with app.run_test(size=(80, 24), message_hook=notes) as pilot:
        person = await open_full_screen(pilot, app, "f1", "#users")
        number = first_phone(person)
        assert number and person.email1  # the demo's first person has both
        await pilot.press("f5")  # no dialer configured: the number is copied, with a tel: link
        assert await wait_for(pilot, lambda: notes.said("No dialer configured"))
        assert not notes.said("No number to call") and app.clipboard == number
        await pilot.press("e")
        assert await wait_for(pilot, lambda: notes.said(f"Copied e-mail: {person.email1}"))
        assert app.clipboard == person.email1
        await pilot.press("c")
        assert await wait_for(pilot, lambda: notes.said(f"Copied number: {number}"))
        await pilot.press("b")
        assert await wait_for(pilot, lambda: len([m for m in notes.messages if "No dialer configured" in m]) == 2)


async def test_c_and_f5_on_a_contacts_full_screen_detail(make_app):
    notes = Notifications()
    app = make_app()
    async with app.run_test(size=(80, 24), message_hook=notes) as pilot:
        contact = await open_full_screen(pilot, app, "f2", "#contacts")
        await pilot.press("c")
        assert await wait_for(pilot, lambda: notes.said(f"Copied number: {first_phone(contact)}"))
        await pilot.press("f5")
        assert await wait_for(pilot, lambda: notes.said("No dialer configured"))
        assert not notes.said("No number to call")


async def test_f5_and_c_on_a_looked_up_number_list_and_full_screen(make_app, service):
    user = next(u for u in await service.people.window(None, limit=200) if u.phoneNum)
    notes = Notifications()
    app = make_app()
    async with app.run_test(size=(80, 24), message_hook=notes) as pilot:
        await pilot.press("f4")
        await pilot.press("slash", *user.phoneNum, "enter")
        assert await wait_for(pilot, listed(pilot, "#results"))
        await pilot.press("f5")  # on the list
        assert await wait_for(pilot, lambda: notes.said("No dialer configured"))
        assert app.clipboard == user.phoneNum
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        await pilot.press("c")
        assert await wait_for(pilot, lambda: notes.said(f"Copied number: {user.phoneNum}"))
        assert not notes.said("No number to call")


async def test_a_calls_full_screen_detail_calls_back_and_opens_the_caller(service):
    from datetime import datetime, timezone

    from call_helpers import desk_app
    from corpdir.tui.widgets.user_detail import UserDetail
    from tui_helpers import screen_text

    user = next(u for u in await service.people.window(None, limit=200) if u.phoneNum)
    await service.calls.create("incoming", {"fromNum": user.phoneNum, "answered": True, "duration": 30,
                                           "calledAt": datetime.now(timezone.utc).isoformat()})
    notes = Notifications()
    app = desk_app(service)
    async with app.run_test(size=(80, 24), message_hook=notes) as pilot:
        await open_call_full_screen(pilot, app, user.phoneNum)
        assert "Open person" in screen_text(app) and "Copy e-mail" not in screen_text(app)  # a call has no e-mail
        await pilot.press("c")
        assert await wait_for(pilot, lambda: notes.said(f"Copied number: {user.phoneNum}"))
        await pilot.press("O")  # the caller, as O on the list
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and isinstance(app.screen.detail, UserDetail))
        assert await wait_for(pilot, lambda: user.fullname in screen_text(app))
        assert "Open person" not in screen_text(app)  # opened from the call, not from a list


async def test_an_unknown_callers_full_screen_detail_saves_the_number_as_a_contact(service):
    """O on a call from a number no one has says "S saves it as a new contact": S does so
    on the full-screen detail too (it was a key of the list only, and did nothing here)."""
    from datetime import datetime, timezone

    from call_helpers import desk_app
    from corpdir.tui.forms.model_form import ModelForm
    from tui_helpers import screen_text

    number = "0471234567"
    await service.calls.create("incoming", {"fromNum": number, "answered": False,
                                           "calledAt": datetime.now(timezone.utc).isoformat()})
    notes = Notifications()
    app = desk_app(service)
    async with app.run_test(size=(80, 24), message_hook=notes) as pilot:
        await open_call_full_screen(pilot, app, number)
        await pilot.press("O")
        assert await wait_for(pilot, lambda: notes.said("S saves it as a new contact"))
        await pilot.press("S")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ModelForm))
        assert await wait_for(pilot, lambda: "047-123-4567" in screen_text(app) or number in screen_text(app))
