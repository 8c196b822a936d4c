"""Divisions and folders are chosen by name in a picker, never typed as ids:
type to filter (names, readings, paths), the matches shown with their paths,
Enter chooses, Esc leaves the field as it was; what is saved is the chosen one's id."""

from corpdir.tui.forms.choice_picker import ChoicePicker
from corpdir.tui.forms.model_form import ModelForm
from form_helpers import open_form, pick, save, type_into
from forms.write_helpers import choose_folder, select_row
from service_fixtures import service_division_paths
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of

SECOND_1KA = "本社 › 営業本部 › 第二営業部 › 1課"


async def _new_user_form(pilot, app):
    """n in the Directory (once its rows are there): the new-user form."""
    await select_row(pilot, app, "#users")
    await pilot.press("n")
    return await open_form(pilot, app)


async def test_a_new_user_gets_the_division_chosen_by_path(admin, recorder, app_for):
    paths = await service_division_paths(backend_of(admin).client)
    wanted = next(i for i, p in paths.items() if p == SECOND_1KA)
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        form = await _new_user_form(pilot, app)
        await type_into(pilot, form, "loginId", "picked.one")
        await type_into(pilot, form, "fullname", "選択 一郎")
        picker, chosen = await pick(pilot, form, "divisionIds", "第二 1課")
        assert [c.path for c in picker.shown] == [SECOND_1KA]  # one 1課 among the eleven
        assert chosen == [wanted]
        assert await wait_for(pilot, lambda: SECOND_1KA in screen_text(app))  # the form shows the path
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        (method, path, body), = recorder.writes()
        assert (method, path, body["divisionIds"]) == ("POST", "/v1/users", [wanted])
        made, = [u async for u in backend_of(admin).client.iter_users(loginIds=["picked.one"])]
        assert [d.divisionId for d in made.divisions] == [wanted]


async def test_the_picker_filters_shows_paths_and_esc_changes_nothing(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        field = (form := await _new_user_form(pilot, app)).widget("divisionIds")
        field.focus()
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ChoicePicker))
        picker = app.screen
        every = len(picker.shown)
        await pilot.press(*"1課")
        assert await wait_for(pilot, lambda: 1 < len(picker.shown) < every)
        assert all(c.name == "1課" for c in picker.shown)
        text = screen_text(app)
        assert SECOND_1KA in text and f"{len(picker.shown)} of {every} divisions" in text
        await pilot.press(*"ｘｘ")  # full width, folded: matches nothing
        assert await wait_for(pilot, lambda: not picker.shown)
        assert "No division matches" in screen_text(app)
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is form)
        assert field.values == [] and not form.dirty


async def test_a_new_contact_goes_to_the_folder_chosen_by_name(reception, recorder, app_for):
    folders = await reception.contacts.folders()
    personal = await reception.contacts.personal_folders()
    target = personal[-1]
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await choose_folder(pilot, app, folders[0].folderId.directory, folders[0].folderId.folderNum)
        await pilot.press("n")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "fullname", "移動 先子")
        picker, chosen = await pick(pilot, form, "folderId", target.folderName)
        assert chosen == [{"directory": "PERSONAL", "folderNum": target.folderNum}]
        assert f"Personal › {target.folderName}" in [c.path for c in picker.choices]
        recorder.clear()
        await save(pilot, form)
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
        (method, path, body), = recorder.writes()
        assert (method, path) == ("POST", "/v1/contacts")
        assert body["folderId"] == {"directory": "PERSONAL", "folderNum": target.folderNum}
        stored = [c async for c in backend_of(reception).client.iter_contacts(directory="PERSONAL", folderNums=[target.folderNum])]
        assert "移動 先子" in [c.fullname for c in stored]


async def test_the_picker_finds_a_reading_typed_in_hiragana_or_romaji(admin, recorder, app_for):
    """A reading is typed in hiragana (えいぎょう) far more often than in katakana, the way
    the readings are stored; or in romaji with the input method off (eigyou). Both find
    what the katakana finds (hiragana found nothing)."""
    import jaconv

    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        field = (await _new_user_form(pilot, app)).widget("divisionIds")
        field.focus()
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ChoicePicker))
        picker = app.screen
        every = len(picker.shown)
        reading = next(c.more.split()[0] for c in picker.shown if c.more and c.more.split()[0].isalpha())
        box = picker.query_one("#choice-filter")

        async def shown_for(typed: str) -> list:
            box.value = ""
            await pilot.press(*typed)
            assert await wait_for(pilot, lambda: box.value == typed and len(picker.shown) < every)
            return list(picker.shown)

        by_katakana = await shown_for(reading)
        assert by_katakana
        assert await shown_for(jaconv.kata2hira(reading)) == by_katakana
        assert await shown_for(jaconv.kata2alphabet(reading)) == by_katakana
