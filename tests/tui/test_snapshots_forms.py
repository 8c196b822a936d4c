"""SVG snapshots of the write forms (new, edit, with errors) at 80x24 and 120x36, on the
still pictures of test_snapshots.py (frozen clock, time zone, no cursor blink)."""

from __future__ import annotations

from datetime import datetime

import pytest

from corpdir.tui.forms.choice_picker import ChoicePicker
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.division_tree import DivisionTree
from tui.test_snapshots import FROZEN_NOW, NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
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


async def user_profile(pilot) -> None:
    """P: the profile form (U10) of the person chosen."""
    await _form(pilot, "P")


async def contact_new(pilot) -> None:
    await _form(pilot, "n", "f2", "#contacts")


async def contact_edit(pilot) -> None:
    await _form(pilot, "E", "f2", "#contacts")


async def contact_errors(pilot) -> None:
    """A failed save of a contact: each field named with its rule."""
    form = await _form(pilot, "E", "f2", "#contacts")
    form.widget("fullname").value = ""
    form.widget("email1").value = "not an address"
    form.widget("phoneNum").value = "03-12ab"
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: form.errors)


async def contact_card(pilot) -> None:
    """K: a contact from a business card, into the folder chosen by name (来客予定, picked
    by typing part of it): the field shows the folder's path, not a number."""
    form = await _form(pilot, "K", "f2", "#contacts")
    await _picker(pilot, form, "folder", "来客")
    await pilot.press("enter")
    await settle(pilot, lambda: pilot.app.screen is form and form.widget("folder").values)


async def contact_card_errors(pilot) -> None:
    form = await _form(pilot, "K", "f2", "#contacts")
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: form.errors)


async def contact_card_folder_picker(pilot) -> None:
    await _picker(pilot, await _form(pilot, "K", "f2", "#contacts"), "folder")


async def division_new(pilot) -> None:
    await _form(pilot, "N")


async def division_errors(pilot) -> None:
    """A new division saved without a name and with a phone number that is not one."""
    form = await _form(pilot, "N")
    form.widget("divisionPhoneNum").value = "abc"
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: form.errors)


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


async def folder_new(pilot) -> None:
    """F on Contacts: a new personal folder (P2)."""
    await _form(pilot, "F", "f2", "#contacts")


async def folder_edit(pilot) -> None:
    """R with one of the user's personal folders chosen in the tree: rename it (P3)."""
    from corpdir.tui.widgets.folder_tree import FolderScope, FolderTree

    await pilot.press("f2")
    await settle(pilot, listed(pilot, "#contacts"))
    folder = (await pilot.app.service.contacts.personal_folders())[0]
    tree = pilot.app.screen.query_one(FolderTree)
    tree.post_message(FolderTree.ScopeSelected(FolderScope("PERSONAL", folder.folderNum, folder.folderName)))
    await settle(pilot, lambda: pilot.app.screen.browse.scope.folder_num == folder.folderNum
                 and listed(pilot, "#contacts")())
    await pilot.press("R")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ModelForm) and pilot.app.screen._ready)


async def _call_form(pilot, direction_key: str, key: str) -> None:
    await pilot.press("f3")
    await settle(pilot, listed(pilot, "#calls"))
    if direction_key:
        await pilot.press(direction_key)
        await settle(pilot, lambda: pilot.app.screen.view.direction == "outgoing" and listed(pilot, "#calls")())
    await pilot.press(key)
    await settle(pilot, lambda: isinstance(pilot.app.screen, ModelForm) and pilot.app.screen._ready)


async def call_incoming_new(pilot) -> None:
    """n on Calls: a record of an incoming call (H2), its time the frozen clock's."""
    await _call_form(pilot, "", "n")


async def call_incoming_edit(pilot) -> None:
    await _call_form(pilot, "", "E")


async def call_outgoing_new(pilot) -> None:
    await _call_form(pilot, "o", "n")


async def call_outgoing_edit(pilot) -> None:
    await _call_form(pilot, "o", "E")


SCENES = {name: scene for name, scene in globals().items()
          if name.startswith(("user_", "contact_", "division_", "folder_", "call_"))}
# a person's form is offered only to a key with user management (the reception desk's is not)
ADMINISTRATORS = {"user_new", "user_edit", "user_errors", "division_picker", "division_picker_typed"}


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x36", "80x24"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_form(scene, size, snap_compare, tmp_path, monkeypatch):
    from corpdir.tui.forms import specs

    # a new call record starts at "now": the frozen clock's, in the pictures' time zone
    monkeypatch.setattr(specs, "_now", lambda: datetime.fromtimestamp(FROZEN_NOW).astimezone().isoformat())
    key = "demo-admin" if scene in ADMINISTRATORS else "demo-reception"
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3", key), run_before=SCENES[scene], terminal_size=size)
