"""The user form (U2/U4) and the profile form (U10), driven from the directory screen."""

from corpdir.tui.forms.model_form import ModelForm
from form_helpers import open_form, save, type_into
from forms.write_helpers import edit_regular_user, select_row
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def test_editing_one_field_sends_only_that_field(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user = await select_row(pilot, app, "#users", lambda u: u.userType == "REGULAR_USER" and u.position)
        before = await backend_of(admin).client.get_user(user.userId)
        recorder.clear()
        await pilot.press("E")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "position", "受付係長")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm))
        writes = recorder.writes()
        assert writes == [("PATCH", f"/v1/users/{user.userId}", {"position": "受付係長"})]
        after = await backend_of(admin).client.get_user(user.userId)
        assert after.position == "受付係長"
        assert after.model_dump(exclude={"position"}) == before.model_dump(exclude={"position"})
        cached = await admin.people.user(user.userId)
        assert cached.record.position == "受付係長"  # the cache holds what the API returned


async def test_clearing_a_field_sends_empty_text(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user, form = await edit_regular_user(pilot, app, lambda u: u.position)
        await type_into(pilot, form, "position", "")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm))
        assert recorder.writes() == [("PATCH", f"/v1/users/{user.userId}", {"position": ""})]
        assert (await backend_of(admin).client.get_user(user.userId)).position in ("", None)


async def test_bad_input_is_shown_beside_the_field_and_nothing_is_sent(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        _, form = await edit_regular_user(pilot, app)
        await type_into(pilot, form, "fullname", "x" * 51)  # too long
        await type_into(pilot, form, "extensionNum", "12a4")  # bad characters
        await type_into(pilot, form, "level", "11")  # out of range
        # validation runs as you type (debounced): wait for it, never for a fixed time
        assert await wait_for(pilot, lambda: {"fullname", "extensionNum", "level"} <= set(form.errors)), form.errors
        assert "at most 50 characters" in form.errors["fullname"]
        assert "may contain only digits" in form.errors["extensionNum"]
        assert "10 or less" in form.errors["level"]
        recorder.clear()
        await save(pilot, form)
        assert isinstance(app.screen, ModelForm)  # kept open, with what was typed
        assert form.widget("level").value == "11"
        assert recorder.writes() == []
        assert await wait_for(pilot, lambda: "at most 50 characters" in screen_text(app))


async def test_a_field_the_user_type_may_not_set_is_refused_beside_it(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        _, form = await edit_regular_user(pilot, app)
        assert not form.widget("deviceId").disabled
        await type_into(pilot, form, "deviceId", "AB12")
        form.widget("userType").value = "FACILITY"
        assert await wait_for(pilot, lambda: "deviceId" in form.errors), form.errors
        assert "cannot be set for a FACILITY user" in form.errors["deviceId"]
        assert form.widget("thanksAvailable").disabled  # untouched restricted fields are greyed
        recorder.clear()
        await save(pilot, form)
        assert recorder.writes() == []
        assert isinstance(app.screen, ModelForm)


async def test_creating_a_user(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "loginId", "new.person")
        await type_into(pilot, form, "fullname", "新規 太郎")
        await type_into(pilot, form, "extensionNum", "4321")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm))
        (method, path, body), = recorder.writes()
        assert (method, path) == ("POST", "/v1/users")
        assert body == {"loginId": "new.person", "fullname": "新規 太郎", "extensionNum": "4321", "userType": "REGULAR_USER"}
        found = (await backend_of(admin).client.list_users(loginIds=["new.person"])).items
        assert [u.fullname for u in found] == ["新規 太郎"]


async def test_permission_error_names_the_missing_right(server, admin, recorder, app_for):
    """The form was opened with user management, which the key lost before saving (an
    administrator's roles changed meanwhile): the 403 is said, what was typed kept."""
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user = await select_row(pilot, app, "#users", lambda u: u.loginId not in (None, "admin") and u.enabled is not False
                                and u.userType == "REGULAR_USER")
        await pilot.press("E")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "position", "changed")
        me, client = server.state.storage.user_for_key("demo-admin"), backend_of(admin).client
        await client.edit_user(user.userId, {"roles": ["ADMIN_COMPANY"]})  # the service keeps one administrator
        await client.edit_user(me, {"roles": []})
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "this key may not edit people. It needs user management."
                              in " ".join(screen_text(app).replace("│", " ").replace("▌", " ").split()))
        assert isinstance(app.screen, ModelForm)  # what was typed is kept
        assert form.widget("position").value == "changed"
        assert (await backend_of(admin).client.get_user(user.userId)).position != "changed"


async def test_leaving_a_modified_form_asks_first(admin, app_for):
    from corpdir.tui.forms.confirm import ConfirmScreen

    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        await select_row(pilot, app, "#users")
        await pilot.press("E")
        form = await open_form(pilot, app)
        await pilot.press("escape")  # untouched: leaves at once
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm))
        await pilot.press("E")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "comment", "typed")
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "not saved" in screen_text(app)
        await pilot.press("n")
        assert await wait_for(pilot, lambda: app.screen is form)
        assert form.widget("comment").value == "typed"
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, (ModelForm, ConfirmScreen)))


async def test_a_phone_number_typed_in_full_width_is_shown_and_sent_as_the_spec_writes_it(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user, form = await edit_regular_user(pilot, app)
        await type_into(pilot, form, "phoneNum", "(０３) ６４４０ー２９７９")
        await type_into(pilot, form, "extensionNum", "２３１０")
        assert form.widget("phoneNum").value == "036440-2979"  # what will be sent, as typed
        assert form.widget("extensionNum").value == "2310"
        await type_into(pilot, form, "phoneNum", "")
        form.widget("phoneNum").insert_text_at_cursor("０３−６４４０−２９７９")  # as a paste inserts it
        await pilot.pause()
        assert form.widget("phoneNum").value == "03-6440-2979"
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        sent = recorder.writes()[0][2]
        assert sent["phoneNum"] == "03-6440-2979" and sent["extensionNum"] == "2310"
        assert (await backend_of(admin).client.get_user(user.userId)).phoneNum == "03-6440-2979"


async def test_emptying_a_number_marks_that_field_and_sends_nothing(admin, recorder, app_for):
    """A number cannot be cleared on the service: the spec's edit rules name the field
    (a typed error), and the form marks it instead of sending."""
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        _, form = await edit_regular_user(pilot, app, lambda u: u.level is not None)
        await type_into(pilot, form, "level", "")
        recorder.clear()
        await save(pilot, form)
        assert isinstance(app.screen, ModelForm)
        assert "cannot be emptied" in form.errors.get("level", ""), form.errors
        assert recorder.writes() == []
