"""Face photos through the TUI (directory u / U): the file is chosen in the picker, a PNG
is converted to JPEG and previewed before it replaces the stored photo (U7); a file that
is not an image is refused with a sentence and nothing is sent; U deletes it (U8)."""

import pytest

from corpdir.client.errors import NotFound
from corpdir.service.images import JPEG_MAGIC
from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.file_picker import FilePicker
from corpdir.tui.forms.image_preview import ImagePreview
from corpdir.tui.widgets.virtual_list import VirtualList
from forms.write_helpers import drawn, image_file, jpeg_size, pick_file
from tui_helpers import Notifications, screen_text, settle, wait_for
from corpdir.service.backend import backend_of


async def _select_first_user(pilot, app):
    users = app.screen.query_one("#users", VirtualList)
    assert await wait_for(pilot, lambda: users.row_count > 0 and users.row(0) is not None)
    users.focus()
    await pilot.press("down", "up")  # onto the first row, as a person would
    assert await wait_for(pilot, lambda: app.screen.selected is not None)
    return app.screen.selected


def _uploads(recorder):
    return [(m, p, b) for m, p, b in recorder.requests if m != "GET"]


async def test_photo_replaced_from_a_png_with_a_preview_then_deleted(admin, recorder, app_for, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the file picker starts here
    client = backend_of(admin).client
    png = image_file(tmp_path, "face.png", "PNG", color=(30, 120, 200, 128), size=(60, 80), mode="RGBA")
    not_image = tmp_path / "face-not-really.png"
    not_image.write_text("this is a note, not a picture\n")
    app = app_for(admin)
    notes = Notifications()
    async with app.run_test(size=(120, 40), message_hook=notes) as pilot:
        user = await _select_first_user(pilot, app)

        # a file that is not an image: refused with a sentence, no preview, nothing sent
        recorder.clear()
        await pilot.press("u")
        await pick_file(pilot, app, not_image)
        assert await wait_for(pilot, lambda: notes.said("not an image")), notes.messages
        said = next(n for n in notes.shown if "not an image" in n.message)
        assert said.severity == "error" and "face-not-really.png" in said.message
        assert not isinstance(app.screen, (ImagePreview, FilePicker))
        assert _uploads(recorder) == []

        # a PNG: converted, previewed (n keeps the stored photo), then y replaces it
        photo = app.screen.query_one("#user-photo")
        await settle(pilot)  # every load finished: what a person sees
        shown_before = drawn(photo)
        await pilot.press("u")
        await pick_file(pilot, app, png)
        assert await wait_for(pilot, lambda: isinstance(app.screen, ImagePreview))
        preview = app.screen
        assert preview.jpeg.startswith(JPEG_MAGIC) and jpeg_size(preview.jpeg) == (60, 80)
        assert f"Replace the photo of {user.fullname}" in screen_text(app)
        await pilot.press("n")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ImagePreview))
        assert _uploads(recorder) == []
        await pilot.press("u")
        await pick_file(pilot, app, png)
        assert await wait_for(pilot, lambda: isinstance(app.screen, ImagePreview))
        await pilot.press("y")
        assert await wait_for(pilot, lambda: len(_uploads(recorder)) == 1)
        (method, path, body), = _uploads(recorder)
        assert (method, path) == ("PUT", f"/v1/users/{user.userId}/photo")
        assert body.startswith(JPEG_MAGIC)  # a JPEG went, not the PNG
        stored = await client.get_photo(user.userId, "FULL")
        assert stored.startswith(JPEG_MAGIC) and jpeg_size(stored) == (60, 80)
        assert await wait_for(pilot, lambda: drawn(photo) != shown_before
                              and drawn(photo) != "no photo")  # the pane shows the new one

        # U: a question, then the photo is gone
        recorder.clear()
        await pilot.press("U")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert f"Delete the photo of {user.fullname}" in screen_text(app)
        await pilot.press("y")
        assert await wait_for(pilot, lambda: recorder.writes() == [("DELETE", f"/v1/users/{user.userId}/photo", b"")])
        with pytest.raises(NotFound):
            await client.get_photo(user.userId, "FULL")
        assert await wait_for(pilot, lambda: drawn(photo) == "no photo")  # and the pane no longer shows it
