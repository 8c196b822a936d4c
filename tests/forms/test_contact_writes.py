"""Contacts through the TUI, end to end: a new contact in the chosen folder (n, X2, checked
as you type), personal folders (F new, R rename: P2/P3), a contact from a business card
(K, X5: the file picked with Ctrl+O) and its card image replaced and deleted (i/I, X7/X8).
Each is proved by reading the server back through the client."""

import re

import pytest

from corpdir.client.errors import NotFound
from corpdir.service.images import read_jpeg
from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.image_preview import ImagePreview
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.folder_tree import FolderTree
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, pick, save, type_into
from forms.write_helpers import choose, choose_folder, drawn, image_file, pick_file
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def _contacts_screen(pilot, app):
    await pilot.press("f2")
    assert await wait_for(pilot, lambda: app.screen.query(FolderTree) and app.screen.query_one(FolderTree).root.children)
    await pilot.pause()


async def _form_in_folder(pilot, app, key: str, folder_num: int):
    """The form ``key`` opens (n: a new contact, K: from a card) with a personal folder chosen in the tree."""
    await _contacts_screen(pilot, app)
    await choose_folder(pilot, app, "PERSONAL", folder_num)
    await pilot.press(key)
    return await open_form(pilot, app)


async def _folder_contacts(client, directory, num):
    return [c async for c in client.iter_contacts(directory=directory, folderNums=[num])]


async def test_new_contact_in_the_chosen_folder_is_checked_as_you_type(reception, recorder, app_for):
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form_in_folder(pilot, app, "n", 102)
        assert form.widget("folderId").values == [{"directory": "PERSONAL", "folderNum": 102}]  # chosen in the tree
        name = next(f.folderName for f in await reception.contacts.personal_folders() if f.folderNum == 102)
        assert await wait_for(pilot, lambda: f"Personal › {name}" in screen_text(app))  # by its name, not PERSONAL 102
        await type_into(pilot, form, "fullname", "来訪 花子")
        await type_into(pilot, form, "companyName", "来訪商事")
        await type_into(pilot, form, "phoneNum", "03-55x")
        assert await wait_for(pilot, lambda: "phoneNum" in form.errors), form.errors  # no save: checked once typing stops
        assert "may contain only digits" in form.errors.get("phoneNum", ""), form.errors
        assert await wait_for(pilot, lambda: "may contain only digits" in screen_text(app))  # shown beside the field
        await type_into(pilot, form, "phoneNum", "03-5555-0102")
        assert await wait_for(pilot, lambda: "phoneNum" not in form.errors), form.errors
        assert "phoneNum" not in form.errors
        assert await wait_for(pilot, lambda: "may contain only digits" not in screen_text(app))
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        assert recorder.writes() == [("POST", "/v1/contacts", {
            "folderId": {"directory": "PERSONAL", "folderNum": 102}, "fullname": "来訪 花子",
            "companyName": "来訪商事", "phoneNum": "03-5555-0102"})]
        stored = [c for c in await _folder_contacts(backend_of(reception).client, "PERSONAL", 102) if c.fullname == "来訪 花子"]
        assert [(c.companyName, c.phoneNum) for c in stored] == [("来訪商事", "03-5555-0102")]
        rows = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: any(rows.row(i) is not None and rows.row(i).fullname == "来訪 花子"
                                                 for i in range(rows.row_count)))


async def test_personal_folder_create_and_rename(reception, recorder, app_for):
    client = backend_of(reception).client
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await _contacts_screen(pilot, app)
        await pilot.press("F")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "folderName", "展示会")
        await type_into(pilot, form, "sortScore", "25")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        assert recorder.writes() == [("POST", "/v1/personal-folders", {"folderName": "展示会", "sortScore": 25})]
        made = [f async for f in client.iter_personal_folders() if f.folderName == "展示会"]
        assert [f.sortScore for f in made] == [25]
        num = made[0].folderNum

        # the tree shows it; choose it there and rename it with R: only the name is sent
        await choose_folder(pilot, app, "PERSONAL", num)
        await pilot.press("R")
        form = await open_form(pilot, app)
        assert form.widget("folderName").value == "展示会"
        await type_into(pilot, form, "folderName", "展示会2025")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        assert recorder.writes() == [("PATCH", f"/v1/personal-folders/{num}", {"folderName": "展示会2025"})]
        stored = [f async for f in client.iter_personal_folders() if f.folderNum == num]
        assert [(f.folderName, f.sortScore) for f in stored] == [("展示会2025", 25)]
        assert await wait_for(pilot, lambda: "展示会2025" in screen_text(app))  # the tree shows the new name


def _multipart_fields(body: bytes) -> dict[str, str]:
    """The text parts of a multipart body (the image part has a filename, so is left out)."""
    return {k.decode(): v.decode() for k, v in re.findall(rb'name="([^"]+)"\r\n\r\n([^\r]*)\r\n', body)}


async def test_contact_from_a_card_then_card_image_replaced_and_deleted(reception, recorder, app_for, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the file picker starts here
    client = backend_of(reception).client
    card_png = image_file(tmp_path, "card.png", "PNG", color=(250, 250, 240), size=(91, 55))
    before = {c.contactId for c in await _folder_contacts(client, "PERSONAL", 103)}
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form_in_folder(pilot, app, "K", 103)
        assert form.widget("folder").values == [{"directory": "PERSONAL", "folderNum": 103}]  # chosen in the tree
        name = next(f.folderName for f in await reception.contacts.personal_folders() if f.folderNum == 103)
        assert await wait_for(pilot, lambda: f"Personal › {name}" in screen_text(app))  # by its name, not 103
        form.widget("file").focus()
        await pilot.press("ctrl+o")  # the hint beside the field says Ctrl+O browses
        await pick_file(pilot, app, card_png)
        assert app.screen is form and form.widget("file").value == str(card_png)
        form.widget("autoCrop").focus()
        await pilot.press("space")
        await choose(pilot, form.widget("readerType"), "By an operator", "OPERATOR")
        await choose(pilot, form.widget("ocrLanguage"), "English", "ENGLISH")
        await type_into(pilot, form, "comment", "受付で預かった名刺")
        await type_into(pilot, form, "remarks", "要確認")
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        (method, path, body), = [(m, p, b) for m, p, b in recorder.requests if m != "GET"]
        assert (method, path) == ("POST", "/v1/contacts/business-cards")
        assert _multipart_fields(body) == {
            "directory": "PERSONAL", "folderNum": "103", "autoCrop": "true", "divideImage": "false",
            "readerType": "OPERATOR", "ocrLanguage": "ENGLISH", "comment": "受付で預かった名刺", "remarks": "要確認"}
        made, = [c for c in await _folder_contacts(client, "PERSONAL", 103) if c.contactId not in before]
        assert (made.ocrType, made.comment, made.remarks) == ("OPERATOR", "受付で預かった名刺", "要確認")
        assert await client.get_card_image(made.contactId) == read_jpeg(card_png)  # the PNG, as JPEG

        # i: replace the card image (a JPEG goes as it is), after a preview
        rows = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: any(rows.row(i) is not None and rows.row(i).contactId == made.contactId
                                                 for i in range(rows.row_count)))
        rows.focus()
        for i in range(rows.row_count):
            if rows.row(i).contactId == made.contactId:
                rows.cursor = i
        assert await wait_for(pilot, lambda: app.screen.selected is not None
                              and app.screen.selected.contactId == made.contactId)
        card_view = app.screen.query_one("#contact-card")
        assert await wait_for(pilot, lambda: drawn(card_view) not in ("no card", "card: loading…"))
        old_card = drawn(card_view)  # the card from X5, as the pane draws it
        new_card = image_file(tmp_path, "card2.jpg", "JPEG", color=(10, 80, 160), size=(120, 70))
        await pilot.press("i")
        await pick_file(pilot, app, new_card)
        assert await wait_for(pilot, lambda: isinstance(app.screen, ImagePreview))
        assert "Replace the business card" in screen_text(app)
        recorder.clear()
        await pilot.press("y")
        assert await wait_for(pilot, lambda: [(m, p) for m, p, _ in recorder.requests if m != "GET"]
                              == [("PUT", f"/v1/contacts/{made.contactId}/business-card")])
        assert await client.get_card_image(made.contactId) == new_card.read_bytes()
        assert await wait_for(pilot, lambda: drawn(card_view) != old_card
                              and drawn(card_view) not in ("no card", "card: loading…"))  # redrawn

        # I: delete it, after a question naming the contact's card
        await pilot.press("I")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Delete the business card image" in screen_text(app)
        recorder.clear()
        await pilot.press("y")
        assert await wait_for(pilot, lambda: recorder.writes() == [
            ("DELETE", f"/v1/contacts/{made.contactId}/business-card", b"")])
        with pytest.raises(NotFound):
            await client.get_card_image(made.contactId)
        assert await wait_for(pilot, lambda: drawn(card_view) == "no card")  # the pane follows


async def test_card_folder_is_chosen_by_name_and_a_missing_one_is_named(reception, recorder, app_for, tmp_path):
    """K with no folder chosen in the tree: saving names the Folder field and sends nothing;
    the folder is then picked by its name (typed as a user reads it) and goes as X5's two
    form fields."""
    client = backend_of(reception).client
    card_png = image_file(tmp_path, "card.png", "PNG", color=(250, 250, 240), size=(91, 55))
    folder = [f async for f in client.iter_personal_folders() if f.folderName][-1]
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await _contacts_screen(pilot, app)
        app.screen.query_one(FolderTree).focus()
        await pilot.press("K")
        form = await open_form(pilot, app)
        assert form.widget("folder").values == []  # "all contacts" is no folder to put a card in
        form.widget("file").value = str(card_png)
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "folder" in form.errors), form.errors
        assert isinstance(app.screen, ModelForm) and recorder.writes() == []
        assert form.widget("folder").has_focus  # the focus goes to what needs attention
        _, values = await pick(pilot, form, "folder", folder.folderName)
        assert values == [{"directory": "PERSONAL", "folderNum": folder.folderNum}]
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), screen_text(app)
        (_, path, body), = [(m, p, b) for m, p, b in recorder.requests if m != "GET"]
        fields = _multipart_fields(body)
        assert (path, fields["directory"], fields["folderNum"]) == (
            "/v1/contacts/business-cards", "PERSONAL", str(folder.folderNum))


async def test_a_field_not_reached_yet_shows_no_error_until_a_save_is_tried(reception, recorder, app_for):
    """Typing a comment in the card form does not flag the card file the user has not come
    to yet; once a save was tried, every field that needs attention is shown as they type."""
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form_in_folder(pilot, app, "K", 103)
        await type_into(pilot, form, "comment", "受付で預かった名刺")
        assert [d.field for d in form.validate_now()] == [] and form.errors == {}  # the check as typing stops
        assert "choose the card image" not in screen_text(app)
        await save(pilot, form)
        assert await wait_for(pilot, lambda: "file" in form.errors), form.errors
        await type_into(pilot, form, "comment", "受付")
        form.validate_now()
        assert "file" in form.errors and "choose the card image" in screen_text(app)
        assert recorder.writes() == []
