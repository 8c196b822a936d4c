"""What every screen's write actions share: whether writes are offered at all (the
read-only kiosk), opening a form and reporting its result, asking before a delete, and
choosing an image file to upload (converted to JPEG, previewed first)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Awaitable, Callable

from textual.screen import Screen

from corpdir.service.errors import CorpdirError
from corpdir.service.images import NotAnImage, read_jpeg
from corpdir.service.messages import explain
from corpdir.tui.context import context_of
from corpdir.tui.forms.choices import load_choices
from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.file_picker import FilePicker
from corpdir.tui.forms.image_preview import ImagePreview
from corpdir.tui.forms.form_spec import FormSpec
from corpdir.tui.forms.model_form import ModelForm

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff")


def open_form(screen: Screen, spec: FormSpec, record: Any, save: Callable[[dict], Awaitable[Any]],
              done: Callable[[Any], Any] | None = None) -> None:
    """Push the form; ``done(result)`` runs after a successful save."""
    context = context_of(screen)
    if context.read_only:
        screen.notify("This terminal is read-only: nothing can be changed here", severity="warning", timeout=3)
        return

    def finished(result: Any) -> None:
        if result is not None and done is not None:
            done(result)

    service = context.service
    form = ModelForm(spec, record, save, variant=service.variant, choices=lambda picker: load_choices(service, picker))
    screen.app.push_screen(form, finished)


def confirm(screen: Screen, question: str, then: Callable[[], Any], yes: str = "Delete") -> None:
    def answered(ok: bool | None) -> None:
        if ok:
            then()

    screen.app.push_screen(ConfirmScreen(question, yes=yes, no="Cancel"), answered)


async def run_write(screen: Screen, call: Awaitable[Any], success: str) -> Any:
    """Await a write; tell the user what happened (a 403 names the missing right)."""
    try:
        result = await call
    except CorpdirError as exc:
        screen.notify(explain(exc), title="Not done", severity="error", timeout=8)
        return None
    screen.notify(success, timeout=3)
    return result if result is not None else True


def pick_image(screen: Screen, question: str, upload: Callable[[bytes], Any]) -> None:
    """File picker -> JPEG (converted with Pillow if needed, refused if not an image) ->
    preview -> ``upload(jpeg)`` when the user says yes."""

    def chosen(path: Path | None) -> None:
        if path is None:
            return
        screen.run_worker(_prepare(screen, path, question, upload), exclusive=True, exit_on_error=False,
                          group="image-upload")

    screen.app.push_screen(FilePicker("Choose an image", suffixes=IMAGE_SUFFIXES), chosen)


async def _prepare(screen: Screen, path: Path, question: str, upload: Callable[[bytes], Any]) -> None:
    try:
        jpeg = await asyncio.to_thread(read_jpeg, path)
    except NotAnImage as exc:
        screen.notify(f"Not uploaded: {exc}. Use a JPEG, PNG, GIF, WebP or BMP image.", severity="error", timeout=8)
        return

    def answered(ok: bool | None) -> None:
        if ok:
            upload(jpeg)

    screen.app.push_screen(ImagePreview(jpeg, question), answered)
