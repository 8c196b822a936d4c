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
