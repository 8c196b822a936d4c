"""SVG snapshots of the write forms (new, edit, with errors) at 80x24 and 120x36, on the
still pictures of test_snapshots.py (frozen clock, time zone, no cursor blink)."""

from __future__ import annotations

import pytest

from corpdir.tui.forms.choice_picker import ChoicePicker
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.division_tree import DivisionTree
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
from tui_helpers import listed, settle


async def _form(pilot, key: str, screen_key: str = "", list_id: str = "#users") -> ModelForm:
    if screen_key:
        await pilot.press(screen_key)
    await settle(pilot, listed(pilot, list_id))
    await pilot.press(key)
    await settle(pilot, lambda: isinstance(pilot.app.screen, ModelForm) and pilot.app.screen._ready)
    return pilot.app.screen


async def user_new(pilot) -> None:
    await _form(pilot, "n")


async def user_edit(pilot) -> None:
    await _form(pilot, "E")


async def user_errors(pilot) -> None:
    form = await _form(pilot, "E")
    form.widget("extensionNum").value = "12a4"
    form.widget("level").value = "11"
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: form.errors)


async def contact_new(pilot) -> None:
    await _form(pilot, "n", "f2", "#contacts")


async def contact_edit(pilot) -> None:
    await _form(pilot, "E", "f2", "#contacts")


async def contact_card(pilot) -> None:
    """K: a contact from a business card, into the folder chosen by name."""
    await _form(pilot, "K", "f2", "#contacts")


async def contact_card_errors(pilot) -> None:
    form = await _form(pilot, "K", "f2", "#contacts")
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: form.errors)


async def contact_card_folder_picker(pilot) -> None:
    await _picker(pilot, await _form(pilot, "K", "f2", "#contacts"), "folder")


async def division_new(pilot) -> None:
    await _form(pilot, "N")


async def division_edit(pilot) -> None:
    """D on the company's top division: its parent shown as "(top level)", chosen in a picker."""
    await settle(pilot, listed(pilot, "#users"))
    tree = pilot.app.screen.query_one(DivisionTree)
    tree.focus()
    await pilot.press("down")
    await settle(pilot, lambda: tree.cursor_node is not None and tree.cursor_node.data is not None)
    await pilot.press("D")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ModelForm) and pilot.app.screen._ready)


async def _picker(pilot, form: ModelForm, key: str, typed: str = "") -> None:
    form.widget(key).focus()
    await pilot.press("enter")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ChoicePicker))
    if typed:
        await pilot.press(*typed)
        await settle(pilot, lambda: pilot.app.screen.query_one("#choice-filter").value == typed)


async def division_picker(pilot) -> None:
    """The new-user form's divisions: every division by name and path."""
    await _picker(pilot, await _form(pilot, "n"), "divisionIds")


async def division_picker_typed(pilot) -> None:
    """... narrowed by what is typed: the 1課 of 第二営業部 among the eleven 1課."""
    await _picker(pilot, await _form(pilot, "n"), "divisionIds", "1課 第二")


async def contact_folder_picker(pilot) -> None:
    await _picker(pilot, await _form(pilot, "n", "f2", "#contacts"), "folderId")


async def contact_folder_picker_typed(pilot) -> None:
    await _picker(pilot, await _form(pilot, "n", "f2", "#contacts"), "folderId", "personal")


SCENES = {name: scene for name, scene in globals().items()
          if name.startswith(("user_", "contact_", "division_"))}


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x36", "80x24"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_form(scene, size, snap_compare, tmp_path):
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=SCENES[scene], terminal_size=size)
