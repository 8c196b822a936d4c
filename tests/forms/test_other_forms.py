"""Profile, division, contact, personal folder and call forms: each edits one field and
the server stores exactly that (proved by the recorded body and by reading it back);
bad input is shown beside its field with nothing sent; deletes ask first, naming what goes."""

from dataclasses import replace

from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.folder_tree import FolderScope
from form_helpers import open_form, save, type_into
from forms.write_helpers import select_row
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def _bad_then_good(pilot, app, recorder, form, key, bad, message, good):
    await type_into(pilot, form, key, bad)
    recorder.clear()
    await save(pilot, form)
    assert message in form.errors.get(key, ""), form.errors
    assert recorder.writes() == [] and isinstance(app.screen, ModelForm)
    await type_into(pilot, form, key, good)
    recorder.clear()
    await save(pilot, form)
    assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
    return recorder.writes()


async def test_profile_form(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user = await select_row(pilot, app, "#users")
        before = await backend_of(admin).client.get_profile(user.userId)
        await pilot.press("P")
        form = await open_form(pilot, app)
        writes = await _bad_then_good(pilot, app, recorder, form, "oneWord", "あ" * 281, "at most 280 characters", "よろしく")
        assert writes == [("PATCH", f"/v1/users/{user.userId}/profile", {"oneWord": "よろしく"})]
        after = await backend_of(admin).client.get_profile(user.userId)
        assert after.oneWord == "よろしく"
        assert after.model_dump(exclude={"oneWord", "selfUpdatedAt"}) == before.model_dump(exclude={"oneWord", "selfUpdatedAt"})


async def test_profile_list_error_names_the_line(admin, recorder, app_for):
    from textual.widgets import TextArea

    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        await select_row(pilot, app, "#users")
        await pilot.press("P")
        form = await open_form(pilot, app)
        area = form.widget("briefHistories")
        assert isinstance(area, TextArea)
        area.load_text("2020-04-01 | joined\n2021-13-01 | bad month")
        assert await wait_for(pilot, lambda: "briefHistories" in form.errors), form.errors
        assert "line 2" in form.errors["briefHistories"] and "valid date" in form.errors["briefHistories"]
        recorder.clear()
        await save(pilot, form)
        assert recorder.writes() == []


async def _tree_division(pilot, app):
    tree = app.screen.query_one(DivisionTree)
    assert await wait_for(pilot, lambda: 0 in tree._loaded and len(tree.root.children) > 0
                          and tree.root.children[0].data is not None)
    await pilot.pause()
    node = next(n for n in tree.root.children if n.data is not None and n.data.childDivisionIds)
    tree.focus()
    tree.move_cursor(node)
    await pilot.pause()
    return node.data


async def test_division_form_and_delete_counts_the_subtree(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        division = await _tree_division(pilot, app)
        before = await backend_of(admin).client.get_division(division.divisionId)
        await pilot.press("D")
        form = await open_form(pilot, app)
        writes = await _bad_then_good(pilot, app, recorder, form, "divisionPhoneNum", "03-12a4", "may contain only digits",
                                      "03-1234-0000")
        assert writes == [("PATCH", f"/v1/divisions/{division.divisionId}", {"divisionPhoneNum": "03-1234-0000"})]
        after = await backend_of(admin).client.get_division(division.divisionId)
        assert after.divisionPhoneNum == "03-1234-0000"
        assert after.model_dump(exclude={"divisionPhoneNum"}) == before.model_dump(exclude={"divisionPhoneNum"})
        below = len(backend_of(admin).store.subtree_ids(division.divisionId)) - 1
        assert below > 0
        await pilot.pause(0.2)
        division = await _tree_division(pilot, app)  # the tree was reloaded after the save
        await pilot.press("delete")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        text = screen_text(app)
        assert division.divisionName in text and f"the {below} division" in text
        recorder.clear()
        await pilot.press("n")  # cancelled: nothing sent
        await pilot.pause()
        assert recorder.writes() == []


async def test_contact_form_and_delete_names_the_contact(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f2")
        contact = await select_row(pilot, app, "#contacts", lambda c: c.folderId and c.folderId.directory == "SHARED")
        before, = [c async for c in backend_of(admin).client.iter_contacts(directory="SHARED") if c.contactId == contact.contactId]
        await pilot.press("E")
        form = await open_form(pilot, app)
        assert form.widget("folderId").disabled  # the folder cannot change
        writes = await _bad_then_good(pilot, app, recorder, form, "webUrl", "ftp://example.com", "http://",
                                      "https://example.com/yamada")
        assert writes[0][:2] == ("PATCH", f"/v1/contacts/{contact.contactId}")
        assert list(writes[0][2]) == ["webUrl"]
        stored = [c async for c in backend_of(admin).client.iter_contacts(directory="SHARED") if c.contactId == contact.contactId][0]
        assert stored.webUrl == writes[0][2]["webUrl"]
        kept = {"webUrl", "updatedAt"}  # the service stamps the time of the change
        assert stored.model_dump(exclude=kept) == before.model_dump(exclude=kept)  # nothing else changed
        await pilot.press("delete")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert contact.fullname in screen_text(app)
        await pilot.press("escape")


async def test_personal_folder_form(reception, recorder, app_for):
    folder = (await reception.contacts.personal_folders())[0]
    app = app_for(reception)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        screen.browse = replace(screen.browse, scope=FolderScope("PERSONAL", folder.folderNum, folder.folderName))
        await pilot.press("R")
        form = await open_form(pilot, app)
        writes = await _bad_then_good(pilot, app, recorder, form, "sortScore", "1000000000", "999999999 or less", "77")
        assert writes == [("PATCH", f"/v1/personal-folders/{folder.folderNum}", {"sortScore": 77})]
        stored = [f async for f in backend_of(reception).client.iter_personal_folders() if f.folderNum == folder.folderNum][0]
        assert (stored.sortScore, stored.folderName) == (77, folder.folderName)


async def _call_form(pilot, app, recorder, service, direction, code_path, key, bad, message, good):
    await pilot.press("f3")
    await pilot.pause()
    if direction == "outgoing":
        await pilot.press("o")
    row = await select_row(pilot, app, "#calls")
    await pilot.press("E")
    form = await open_form(pilot, app)
    writes = await _bad_then_good(pilot, app, recorder, form, key, bad, message, good)
    rid = row.record.incomingCallHistoryId if direction == "incoming" else row.record.outgoingCallHistoryId
    assert writes == [("PATCH", f"/v1/me/{code_path}/{rid}", {key: good})]
    method = backend_of(service).client.iter_incoming_calls if direction == "incoming" else backend_of(service).client.iter_outgoing_calls
    stored = [r async for r in method() if (r.incomingCallHistoryId if direction == "incoming" else r.outgoingCallHistoryId) == rid][0]
    assert getattr(stored, key) == good
    derived = {"fromNumContact", "toNumContact"}  # who the number belongs to follows the number
    assert stored.model_dump(exclude={key, *derived}) == row.record.model_dump(exclude={key, *derived})


async def test_incoming_call_form(reception, recorder, app_for):
    app = app_for(reception)
    async with app.run_test(size=(100, 40)) as pilot:
        await _call_form(pilot, app, recorder, reception, "incoming", "incoming-calls", "note", "n" * 51,
                         "at most 50 characters", "折り返し済み")


async def test_outgoing_call_form(reception, recorder, app_for):
    app = app_for(reception)
    async with app.run_test(size=(100, 40)) as pilot:
        await _call_form(pilot, app, recorder, reception, "outgoing", "outgoing-calls", "toNum", "03-ext",
                         "may contain only digits", "0312340000")


async def test_delete_user_confirmation_names_the_user(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user = await select_row(pilot, app, "#users")
        await pilot.press("delete")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert user.fullname in screen_text(app)
        recorder.clear()
        await pilot.press("y")
        assert await wait_for(pilot, lambda: recorder.writes() == [("DELETE", f"/v1/users/{user.userId}", b"")])
        assert await wait_for(pilot, lambda: backend_of(admin).store.user(user.userId) is None)


async def test_writes_are_not_offered_read_only(admin, recorder, app_for):
    app = app_for(admin, read_only=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await select_row(pilot, app, "#users")
        await pilot.press("E")
        await pilot.press("delete")
        await pilot.pause()
        assert not isinstance(app.screen, (ModelForm, ConfirmScreen))
        assert app.screen.check_action("edit", ()) is False
