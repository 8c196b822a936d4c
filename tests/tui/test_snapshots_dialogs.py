"""SVG snapshots of the questions and pop-ups over the screens, at 80x24 and 120x36: the
confirm dialog (a delete, leaving a form with unsaved changes), the file picker (a
business card's file, an image to upload), the image preview before an upload, the face
photo, and a record's details full screen. Same still pictures as test_snapshots.py
(frozen clock, time zone, no cursor blink).

The file picker starts in a folder made here (the working directory), holding only the
files named below; its tree names that folder by its name (``files``), so no path of the
machine shows."""

from __future__ import annotations

import pytest

from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.file_picker import FilePicker
from corpdir.tui.forms.image_preview import ImagePreview
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.screens.detail_screen import DetailScreen
from corpdir.tui.screens.photo_screen import PhotoScreen
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
from tui.test_snapshots_forms import _form
from tui_helpers import listed, settle, wait_for


async def _contacts(pilot) -> None:
    await pilot.press("f2")
    await settle(pilot, listed(pilot, "#contacts"))


async def confirm_delete(pilot) -> None:
    """Delete on a contact: the question names it and says what goes with it."""
    await _contacts(pilot)
    await pilot.press("delete")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))


async def confirm_leave(pilot) -> None:
    """Escape on a form with a change not saved: leave and lose it, or keep editing."""
    form = await _form(pilot, "E", "f2", "#contacts")
    form.widget("position").value = "課長"
    await pilot.press("escape")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))


async def _picker_open(pilot) -> None:
    """The picker with its folder read. Its tree keeps a loader worker waiting for folders
    to open for as long as it is shown, so settle() (which waits for every worker) cannot
    be used: wait for the files, then for every other worker."""
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, FilePicker)
                          and pilot.app.screen.query_one("#picker-tree").root.children)
    for _ in range(3):
        others = [w for w in pilot.app.workers if w.group != "_loader"]
        if others:  # (an empty list would mean every worker)
            await pilot.app.workers.wait_for_complete(others)
        await pilot.pause()


async def picker_card(pilot) -> None:
    """Ctrl+O in the business-card form: the card's file, images only."""
    await _form(pilot, "K", "f2", "#contacts")
    await pilot.press("ctrl+o")
    await _picker_open(pilot)


async def picker_image(pilot) -> None:
    """i on Contacts: the image to replace the chosen contact's business card with."""
    await _contacts(pilot)
    await pilot.press("i")
    await _picker_open(pilot)


async def image_preview(pilot) -> None:
    """... the image chosen: shown before it replaces the stored one."""
    await picker_image(pilot)
    await pilot.press(*"card.png", "enter")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ImagePreview))


async def photo(pilot) -> None:
    """p on the Directory: the chosen person's face photo, full size."""
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("p")
    await settle(pilot, lambda: isinstance(pilot.app.screen, PhotoScreen))


async def contact_detail(pilot) -> None:
    """Enter on a contact on a narrow terminal: its details full screen; at 120x36 the
    terminal is widened after it opened (a wide terminal shows the pane instead)."""
    size = pilot.app.size
    await pilot.resize_terminal(*NARROW)
    await _contacts(pilot)
    await pilot.press("enter")
    await settle(pilot, lambda: isinstance(pilot.app.screen, DetailScreen))
    await pilot.resize_terminal(size.width, size.height)
    await settle(pilot)


SCENES = {scene.__name__: scene for scene in (confirm_delete, confirm_leave, picker_card, picker_image, image_preview,
                                             photo, contact_detail)}


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x36", "80x24"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_dialog(scene, size, snap_compare, tmp_path, monkeypatch):
    from PIL import Image

    files = tmp_path / "files"
    (files / "scans").mkdir(parents=True)
    Image.new("RGB", (90, 54), (40, 90, 160)).save(files / "card.png")
    Image.new("RGB", (48, 64), (200, 60, 40)).save(files / "scans" / "face.jpg")
    (files / "notes.txt").write_text("not an image\n")  # not offered: the picker shows images only
    monkeypatch.chdir(files)
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=SCENES[scene], terminal_size=size)
