"""Call records added from the calls screen (n: H2 incoming, H5 outgoing), and the user
form greying what the chosen user type may not set, with the type chosen by keys."""

from datetime import datetime

from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, save, type_into
from forms.write_helpers import choose
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def _add_call(pilot, app, recorder, fields):
    await pilot.press("n")
    form = await open_form(pilot, app)
    stamp_key = "calledAt" if "fromNum" in form.kinds else "callingAt"
    stamp = form.widget(stamp_key).value
    assert stamp  # now, filled in
    assert form.widget("answered").value is True
    for key, text in fields.items():
        await type_into(pilot, form, key, text)
    recorder.clear()
    await save(pilot, form)
    assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
    (method, path, body), = recorder.writes()
    sent = body.pop("calledAt" if "fromNum" in body else "callingAt")
    assert datetime.fromisoformat(sent.replace("Z", "+00:00")) == datetime.fromisoformat(stamp)  # the same moment
    return method, path, body


async def test_adding_incoming_and_outgoing_call_records(reception, recorder, app_for):
    client = backend_of(reception).client
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        calls = app.screen.query_one("#calls", VirtualList)
        assert await wait_for(pilot, lambda: calls.row_count > 0)

        method, path, body = await _add_call(pilot, app, recorder, {
            "fromNum": "0312340001", "duration": "95", "note": "受付テスト着信"})
        assert (method, path) == ("POST", "/v1/me/incoming-calls")
        assert body == {"fromNum": "0312340001", "answered": True, "duration": 95, "note": "受付テスト着信"}
        stored = [r async for r in client.iter_incoming_calls() if r.note == "受付テスト着信"]
        assert [(r.fromNum, r.answered, r.duration) for r in stored] == [("0312340001", True, 95)]
        await pilot.press("a")  # answered only: missed calls not yet called back come first, above it
        assert await wait_for(pilot, lambda: "03-1234-0001" in screen_text(app))  # the list shows it, as written at home

        await pilot.press("o")
        assert await wait_for(pilot, lambda: app.screen.view.direction == "outgoing")
        method, path, body = await _add_call(pilot, app, recorder, {"toNum": "0455550002", "note": "受付テスト発信"})
        assert (method, path) == ("POST", "/v1/me/outgoing-calls")
        assert body == {"toNum": "0455550002", "answered": True, "note": "受付テスト発信"}
        stored = [r async for r in client.iter_outgoing_calls() if r.note == "受付テスト発信"]
        assert [(r.toNum, r.answered) for r in stored] == [("0455550002", True)]
        assert await wait_for(pilot, lambda: "045-555-0002" in screen_text(app))


async def test_choosing_a_user_type_greys_what_it_may_not_set(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")  # a new user: REGULAR_USER to start with, nothing greyed
        form = await open_form(pilot, app)
        restricted = ("position", "mobileNum", "thanksAvailable", "roles", "password")
        assert not any(form.widget(k).disabled for k in restricted)
        await type_into(pilot, form, "loginId", "room.b3")
        await type_into(pilot, form, "fullname", "B3会議室")
        await choose(pilot, form.widget("userType"), "Facility or equipment", "FACILITY")
        assert await wait_for(pilot, lambda: all(form.widget(k).disabled for k in restricted))
        assert not form.widget("extensionNum").disabled and not form.widget("fullname").disabled
        assert await wait_for(pilot, lambda: "Greyed fields cannot be set for this type (Facility or equipment)" in screen_text(app))
        await choose(pilot, form.widget("userType"), "Regular user", "REGULAR_USER")  # back: open again
        assert await wait_for(pilot, lambda: not any(form.widget(k).disabled for k in restricted))
        await choose(pilot, form.widget("userType"), "Facility or equipment", "FACILITY")
        await type_into(pilot, form, "extensionNum", "8301")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        assert recorder.writes() == [("POST", "/v1/users", {"loginId": "room.b3", "fullname": "B3会議室",
                                                             "userType": "FACILITY", "extensionNum": "8301"})]
        found = (await backend_of(admin).client.list_users(loginIds=["room.b3"])).items
        assert [(u.fullname, u.userType, u.extensionNum) for u in found] == [("B3会議室", "FACILITY", "8301")]

        # editing it: the stored type greys the same fields at once
        user = found[0]
        rows = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: any(rows.row(i) is not None and rows.row(i).userId == user.userId
                                                 for i in range(rows.row_count)))
        rows.focus()
        rows.cursor = next(i for i in range(rows.row_count) if rows.row(i).userId == user.userId)
        assert await wait_for(pilot, lambda: app.screen.selected is not None and app.screen.selected.userId == user.userId)
        await pilot.press("E")
        form = await open_form(pilot, app)
        assert all(form.widget(k).disabled for k in restricted)
        await pilot.press("escape")


async def test_editing_a_call_shows_its_time_on_the_users_clock_and_sends_only_the_note(reception, recorder, app_for):
    """The stored moment is UTC ('...Z'); the edit form says it as the Calls list does, in
    the user's time zone, and a note changed alone goes without it."""
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        calls = app.screen.query_one("#calls", VirtualList)
        assert await wait_for(pilot, lambda: calls.row_count > 0 and app.screen.selected is not None)
        record = app.screen.selected.record
        await pilot.press("E")
        form = await open_form(pilot, app)
        shown = form.widget("calledAt").value
        assert shown == record.calledAt.astimezone().isoformat() and not shown.endswith("Z")
        await type_into(pilot, form, "note", "折り返し済み")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        assert recorder.writes() == [("PATCH", f"/v1/me/incoming-calls/{record.incomingCallHistoryId}", {"note": "折り返し済み"})]


async def test_a_call_record_takes_a_number_typed_in_full_width_as_the_contact_form_does(reception, recorder, app_for):
    """Typed as an IME in full-width mode gives it (its hyphen key gives 'ー'); it was
    refused with "may contain only digits"."""
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        calls = app.screen.query_one("#calls", VirtualList)
        assert await wait_for(pilot, lambda: calls.row_count > 0)
        _, _, body = await _add_call(pilot, app, recorder, {"fromNum": "０９０ー１２３４ー５６７８", "note": "全角着信"})
        assert body["fromNum"] == "090-1234-5678"
        await pilot.press("o")
        assert await wait_for(pilot, lambda: app.screen.view.direction == "outgoing")
        _, _, body = await _add_call(pilot, app, recorder, {"toNum": "０３（６４４０）２９７９", "note": "全角発信"})
        assert body["toNum"] == "0364402979"
