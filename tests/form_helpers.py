"""Driving a form as a person would: find a field by its request name, type, save."""

from textual.widgets import Input

from corpdir.tui.forms.model_form import ModelForm
from tui_helpers import wait_for


async def open_form(pilot, app):
    assert await wait_for(pilot, lambda: isinstance(app.screen, ModelForm)), f"no form opened: {app.screen}"
    form = app.screen
    await pilot.pause()
    assert await wait_for(pilot, lambda: form._ready)
    return form


async def type_into(pilot, form, key, text):
    """Replace the field's text by typing, as a user would."""
    widget = form.widget(key)
    assert isinstance(widget, Input)
    widget.focus()
    widget.value = ""
    await pilot.pause()
    await pilot.press(*list(text)) if text else None
    await pilot.pause()


async def save(pilot, form):
    await pilot.press("ctrl+s")
    await pilot.pause()


async def pick(pilot, form, key, typed, *, line=None):
    """Choose in the picker of field ``key`` as a user would: focus the field, go to
    ``line`` (None: the last, "add a ..." on a field of several), Enter, type ``typed`` to
    filter, Enter on the first match. The picker it opened; the field's values after."""
    from corpdir.tui.forms.choice_field import ChoiceField
    from corpdir.tui.forms.choice_picker import ChoicePicker

    field = form.widget(key)
    assert isinstance(field, ChoiceField)
    field.focus()
    await pilot.pause()
    target = field._last if line is None else line
    while field.cursor != target:
        await pilot.press("down" if field.cursor < target else "up")
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoicePicker))
    picker = pilot.app.screen
    assert await wait_for(pilot, lambda: picker.query_one("#choice-filter").has_focus)  # typing goes to the filter
    await pilot.press(*typed)
    assert await wait_for(pilot, lambda: picker.shown and all(c.matches(typed) for c in picker.shown))
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: pilot.app.screen is form)
    await pilot.pause()
    return picker, field.values
