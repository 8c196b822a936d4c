"""How a form greets and helps the user: the cursor after the
first field's text, a failed save that names the fields and goes to the first, no
"keep" hint for a password a new user never had, divisions by path with no gutter beside them."""

from textual.widgets import Input

from corpdir.tui.forms.choice_field import ChoiceField

from corpdir.tui.forms.model_form import ModelForm
from form_helpers import open_form, save, type_into
from forms.write_helpers import edit_regular_user, select_row
from service_fixtures import service_division_paths
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def test_an_edit_form_opens_with_the_cursor_after_the_first_fields_text(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user, form = await edit_regular_user(pilot, app, lambda u: u.fullname)
        first = app.focused
        assert isinstance(first, Input) and first.value == user.fullname
        assert first.selection.is_empty and first.cursor_position == len(user.fullname)
        await pilot.press("x")  # one key adds to the name, it does not replace it
        assert first.value == user.fullname + "x"


async def test_a_failed_save_names_the_fields_and_focuses_the_first(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        _, form = await edit_regular_user(pilot, app)
        await type_into(pilot, form, "level", "11")  # out of range
        await type_into(pilot, form, "extensionNum", "12a4")  # bad characters
        form.widget("fullname").focus()
        await pilot.pause()
        notes = []
        app.notify = lambda message, **kw: notes.append(message)  # what the user is told
        await save(pilot, form)
        assert isinstance(app.screen, ModelForm)
        # the fields in form order: the extension comes before the level
        assert app.focused is form.widget("extensionNum")
        assert notes and "Extension" in notes[-1] and "Level" in notes[-1], notes


async def test_the_new_user_form_says_nothing_about_keeping_a_password(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        await select_row(pilot, app, "#users")
        await pilot.press("n")
        form = await open_form(pilot, app)
        assert form.widget("password").placeholder == ""
        assert "keep" not in screen_text(app)
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm))
        await pilot.press("E")
        form = await open_form(pilot, app)
        assert "keep" in form.widget("password").placeholder  # an edit: empty keeps the one they have


async def test_the_division_editor_shows_paths_without_a_gutter(admin, recorder, app_for):
    """The user's divisions are listed by path, one a line, with nothing beside them that
    reads as a value (no line numbers, no ids); a last line offers to add one."""
    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user, form = await edit_regular_user(pilot, app)
        divisions = form.widget("divisionIds")
        assert isinstance(divisions, ChoiceField)
        paths = await service_division_paths(backend_of(admin).client)
        expected = [paths[d.divisionId] for d in user.divisions]
        assert await wait_for(pilot, lambda: divisions.render().plain.split("\n") == [*expected, "+ add a division"])



async def test_keys_that_arrive_together_reach_the_fields_in_order(admin, recorder, app_for):
    """A name and Tab and a kana typed before the form has answered the first keys (an IME
    commits a whole word at once; a busy form validates as the user types): the kana goes
    to the field after the name, not onto the end of the name."""
    from textual import events

    app = app_for(admin)
    async with app.run_test(size=(100, 40)) as pilot:
        user, form = await edit_regular_user(pilot, app)
        name = form.widget("fullname")
        assert app.focused is name
        chain = form.focus_chain
        second = chain[chain.index(name) + 1]
        assert isinstance(second, Input)
        start = second.value
        for key, char in [("x", "x"), ("tab", "\t"), ("y", "y")]:  # one read from the terminal
            app._driver.send_message(events.Key(key, char))
        assert await wait_for(pilot, lambda: second.value != start)
        assert name.value == user.fullname + "x"
        assert second.value == start + "y"
        assert app.focused is second


async def test_the_label_of_the_field_being_typed_in_lights_up_and_follows_the_focus(admin, recorder, app_for):
    """At 80x24 a compact field's focus is a shade lighter and its cursor blinks: the
    label says where the typing goes, and only that one (it moves with Tab)."""
    from textual.widgets import Label

    app = app_for(admin)
    async with app.run_test(size=(80, 24)) as pilot:
        _, form = await edit_regular_user(pilot, app)

        def lit() -> list[str]:
            return [str(label.render()) for label in form.query(".form-label").results(Label)
                    if label.rich_style.bold]

        def label_of_focused() -> str:
            row = next(n for n in app.focused.ancestors_with_self if n.has_class("form-row"))
            return str(row.query_one(Label).render())

        assert await wait_for(pilot, lambda: lit() == [label_of_focused()])
        first = label_of_focused()
        await pilot.press("tab", "tab")
        assert await wait_for(pilot, lambda: lit() == [label_of_focused()] and label_of_focused() != first)
