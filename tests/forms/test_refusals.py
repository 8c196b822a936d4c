"""What the other form tests leave out: bad input in every create form (U2, D2, X2, X5, P2,
H2, H5) shown beside its field with nothing sent; the service's own objections (a loginId
or division code already used) shown beside the field, with what was typed kept; a 403
from a form and another's profile naming the missing right, a person's delete not offered
to a key without user management; one's own profile
saved; list editors (skills, roles, division IDs) sending only the list changed; a
contact deleted (X4)."""

from textual.widgets import SelectionList, TextArea

from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.folder_tree import FolderTree
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, pick, save, type_into
from forms.write_helpers import choose_folder, pick_file, select_row
from service_fixtures import service_division_paths
from tui_helpers import Notifications, screen_text, wait_for
from corpdir.service.backend import backend_of


async def _discard(pilot, app):
    """Leave a form that was typed into: it asks first, and 'y' throws the typing away."""
    await pilot.press("escape")
    assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    assert await wait_for(pilot, lambda: not isinstance(app.screen, (ModelForm, ConfirmScreen)))


async def _refused(pilot, app, recorder, form, fields: dict[str, str], messages: dict[str, str]):
    """Type bad values, save: each message beside its field, the form open, nothing sent."""
    for key, text in fields.items():
        await type_into(pilot, form, key, text)
    recorder.clear()
    await save(pilot, form)
    assert await wait_for(pilot, lambda: set(messages) <= set(form.errors)), form.errors
    for key, message in messages.items():
        assert message in form.errors[key], (key, form.errors)
    assert app.screen is form and recorder.writes() == []
    for key, text in fields.items():  # what was typed is kept
        assert form.widget(key).value == text
    assert await wait_for(pilot, lambda: all(m in screen_text(app) for m in messages.values()))


def _flat(app):
    """The screen's text, words joined across line breaks and box borders."""
    return " ".join(screen_text(app).replace("│", " ").split())


async def test_directory_create_forms_refuse_bad_input_and_show_the_services_objection(admin, recorder, app_for):
    division = next(d for d in (await backend_of(admin).client.list_divisions()).items if d.divisionCode)
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        # U2: too long, out of range: beside the fields, nothing sent
        await pilot.press("n")
        form = await open_form(pilot, app)
        await _refused(pilot, app, recorder, form, {"loginId": "reception", "fullname": "x" * 51, "level": "11"},
                       {"fullname": "at most 50 characters", "level": "10 or less"})
        # fixed here, but the service has that loginId already: its answer beside loginId, the text kept
        await type_into(pilot, form, "fullname", "二人目 受付")
        await type_into(pilot, form, "level", "5")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "loginId" in form.errors), form.errors
        assert "already used" in form.errors["loginId"]
        assert [(m, p) for m, p, _ in recorder.writes()] == [("POST", "/v1/users")]
        assert app.screen is form and form.widget("fullname").value == "二人目 受付"
        assert await wait_for(pilot, lambda: "already used" in screen_text(app))
        assert [u.fullname for u in (await backend_of(admin).client.list_users(loginIds=["reception"])).items] != ["二人目 受付"]
        await pilot.press("escape")  # typed: asks first
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, (ModelForm, ConfirmScreen)))

        # D2 on the tree: bad characters refused here; a code already used refused by the service, beside the code
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: 0 in tree._loaded and tree.root.children and tree.root.children[0].data)
        tree.focus()
        await pilot.pause()
        await pilot.press("N")
        form = await open_form(pilot, app)
        await _refused(pilot, app, recorder, form, {"divisionCode": "T-X", "divisionName": "新設", "divisionPhoneNum": "03-12a4"},
                       {"divisionPhoneNum": "may contain only digits"})
        await type_into(pilot, form, "divisionPhoneNum", "")
        await type_into(pilot, form, "divisionCode", division.divisionCode)
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "divisionCode" in form.errors), form.errors
        assert "already used" in form.errors["divisionCode"]
        assert app.screen is form and form.widget("divisionName").value == "新設"
        assert not (await backend_of(admin).client.list_divisions(divisionCodes=["T-X"])).items


async def test_contacts_create_forms_refuse_bad_input_and_a_contact_is_deleted(reception, recorder, app_for, tmp_path,
                                                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    client = backend_of(reception).client
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        assert await wait_for(pilot, lambda: app.screen.query(FolderTree) and app.screen.query_one(FolderTree).root.children)
        await choose_folder(pilot, app, "PERSONAL", 102)

        # X2
        await pilot.press("n")
        form = await open_form(pilot, app)
        await _refused(pilot, app, recorder, form, {"fullname": "来訪 一郎", "phoneNum": "03-55x", "webUrl": "ftp://x.example"},
                       {"phoneNum": "may contain only digits", "webUrl": "http://"})
        await _discard(pilot, app)

        # X5: no file, then a file that is not an image: beside the file field, nothing sent
        await pilot.press("K")
        form = await open_form(pilot, app)
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "choose the card image" in form.errors.get("file", "")), form.errors
        not_image = tmp_path / "card.png"
        not_image.write_text("a note, not a card\n")
        form.widget("file").focus()
        await pilot.press("ctrl+o")
        await pick_file(pilot, app, not_image)
        await type_into(pilot, form, "comment", "c" * 501)
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "comment" in form.errors), form.errors
        await type_into(pilot, form, "comment", "預かり")
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "not an image" in form.errors.get("file", "")), form.errors
        assert app.screen is form and recorder.writes() == [] and not [r for r in recorder.requests if r[0] != "GET"]
        await _discard(pilot, app)

        # P2
        await pilot.press("F")
        form = await open_form(pilot, app)
        await _refused(pilot, app, recorder, form, {"folderName": "展示会", "sortScore": "1000000000"},
                       {"sortScore": "999999999 or less"})
        await _discard(pilot, app)

        # X4: the question names the contact; yes deletes it on the service and from the list
        contact = await select_row(pilot, app, "#contacts")
        await pilot.press("delete")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert contact.fullname in screen_text(app)
        recorder.clear()
        await pilot.press("y")
        assert await wait_for(pilot, lambda: recorder.writes() == [("DELETE", f"/v1/contacts/{contact.contactId}", b"")])
        assert contact.contactId not in [c.contactId async for c in client.iter_contacts(directory="PERSONAL")]
        rows = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: all(rows.row(i) is None or rows.row(i).contactId != contact.contactId
                                                 for i in range(rows.row_count)))


async def test_call_create_forms_refuse_bad_input(reception, recorder, app_for):
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        assert await wait_for(pilot, lambda: app.screen.query_one("#calls", VirtualList).row_count > 0)
        await pilot.press("n")  # H2
        form = await open_form(pilot, app)
        await _refused(pilot, app, recorder, form, {"fromNum": "03-ext", "calledAt": "yesterday"},
                       {"fromNum": "may contain only digits", "calledAt": "date"})
        await _discard(pilot, app)
        await pilot.press("o")
        assert await wait_for(pilot, lambda: app.screen.view.direction == "outgoing")
        await pilot.press("n")  # H5
        form = await open_form(pilot, app)
        await _refused(pilot, app, recorder, form, {"toNum": "0312340000", "note": "n" * 51, "duration": "-3"},
                       {"note": "at most 50 characters", "duration": "0 or more"})


async def test_a_403_names_the_missing_right_and_keeps_what_was_typed(reception, recorder, app_for):
    app = app_for(reception)
    notes = Notifications()
    async with app.run_test(size=(120, 40), message_hook=notes) as pilot:
        # U5 by someone without user management: not offered once the cache tells (no
        # login IDs in what the key reads), so nothing is asked or sent, the person still there
        user = await select_row(pilot, app, "#users", lambda u: u.loginId not in ("reception", "admin"))
        directory = app.screen
        assert await wait_for(pilot, lambda: directory.manages_users is False)
        recorder.clear()
        order = directory.browse.order_by
        await pilot.press("delete", "o")  # 'o' orders the list anew: Delete has been handled by then
        assert await wait_for(pilot, lambda: directory.browse.order_by != order)
        assert app.screen is directory and recorder.writes() == []
        assert (await backend_of(reception).client.get_user(user.userId)).userId == user.userId

        # U10 of another person: the form stays open with the text, the message names the right
        await pilot.press("P")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "oneWord", "こんにちは")
        await save(pilot, form)
        said = "It needs own profile, or user management for another user's."
        assert await wait_for(pilot, lambda: said in _flat(app))
        assert app.screen is form and form.widget("oneWord").value == "こんにちは"
        await _discard(pilot, app)

        # D4 without division management
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: 0 in tree._loaded and tree.root.children and tree.root.children[0].data)
        division = tree.root.children[0].data
        tree.focus()
        tree.move_cursor(tree.root.children[0])
        await pilot.pause()
        assert await wait_for(pilot, lambda: tree.cursor_node is tree.root.children[0])
        await pilot.press("D")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "divisionNameAlphabet", "Renamed")
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "It needs division management." in _flat(app)), _flat(app)
        assert app.screen is form and form.widget("divisionNameAlphabet").value == "Renamed"
        assert (await backend_of(reception).client.get_division(division.divisionId)).divisionNameAlphabet != "Renamed"


async def test_ones_own_profile_is_saved_without_user_management(server, reception, recorder, app_for):
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        # the loginIds filter needs user management: the desk's own record by its key's user
        me = await backend_of(reception).client.get_user(server.state.storage.user_for_key("demo-reception"))
        await pilot.press("slash", *me.fullname.replace(" ", "").replace("\u3000", ""), "enter")
        me = await select_row(pilot, app, "#users", lambda u: u.userId == me.userId)
        before = await backend_of(reception).client.get_profile(me.userId)
        await pilot.press("P")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "jobDescription", "来客の受付と内線の取次ぎ")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        assert recorder.writes() == [("PATCH", f"/v1/users/{me.userId}/profile",
                                      {"jobDescription": "来客の受付と内線の取次ぎ"})]
        after = await backend_of(reception).client.get_profile(me.userId)
        assert after.jobDescription == "来客の受付と内線の取次ぎ"
        assert after.model_dump(exclude={"jobDescription", "selfUpdatedAt"}) == \
            before.model_dump(exclude={"jobDescription", "selfUpdatedAt"})


async def test_list_editors_send_only_the_list_changed(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        user = await select_row(pilot, app, "#users", lambda u: u.userType == "REGULAR_USER" and u.divisions)
        # U10: one skill added to the list; the whole list goes (a list sent replaces the stored one), nothing else
        before = await backend_of(admin).client.get_profile(user.userId)
        await pilot.press("P")
        form = await open_form(pilot, app)
        skills = form.widget("skills")
        assert isinstance(skills, TextArea) and skills.text.split("\n") == (list(before.skills or []) or [""])
        skills.focus()
        skills.move_cursor(skills.document.end)
        await pilot.press(*(["enter"] if skills.text else []), *"受付対応")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        wanted = [*(before.skills or []), "受付対応"]
        assert recorder.writes() == [("PATCH", f"/v1/users/{user.userId}/profile", {"skills": wanted})]
        after = await backend_of(admin).client.get_profile(user.userId)
        assert after.skills == wanted
        assert after.model_dump(exclude={"skills", "selfUpdatedAt"}) == before.model_dump(exclude={"skills", "selfUpdatedAt"})

        # U4: a role ticked and a division added (chosen by its path); only roles and divisionIds go
        before = await backend_of(admin).client.get_user(user.userId)
        await pilot.press("E")
        form = await open_form(pilot, app)
        roles = form.widget("roles")
        assert isinstance(roles, SelectionList)
        role = next(r for r in form.kinds["roles"].choices if r not in (before.roles or []))
        roles.focus()
        roles.highlighted = form.kinds["roles"].choices.index(role)
        await pilot.press("space")
        other = next(d for d in (await backend_of(admin).client.list_divisions()).items
                     if d.divisionId not in {x.divisionId for x in before.divisions})
        paths = await service_division_paths(backend_of(admin).client)
        assert (await pick(pilot, form, "divisionIds", paths[other.divisionId]))[1][-1] == other.divisionId
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        (method, path, body), = recorder.writes()
        assert (method, path) == ("PATCH", f"/v1/users/{user.userId}")
        assert set(body) == {"roles", "divisionIds"}
        assert set(body["roles"]) == {*(before.roles or []), role}
        assert body["divisionIds"] == [*(d.divisionId for d in before.divisions), other.divisionId]
        after = await backend_of(admin).client.get_user(user.userId)
        assert set(after.roles) == set(body["roles"])
        assert [d.divisionId for d in after.divisions] == body["divisionIds"]
        assert after.model_dump(exclude={"roles", "divisions"}) == before.model_dump(exclude={"roles", "divisions"})
