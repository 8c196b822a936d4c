"""A face photo or business card in the terminal: half-block pixels (rich-pixels).

Decoding and scaling happen in a thread, and each rendering is kept (~30 ms and ~31 KiB
for 40x20 cells), so moving through a list never decodes the same image twice. An image
over the pixel limit is refused from its header, and a JPEG is decoded at the smallest
scale that fills the cells (:func:`corpdir.service.images.open_image`): a 13000x13000 photo
once took 920 MB to show, in each SSH session's process.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from textual.widgets import Static

if TYPE_CHECKING:
    from rich_pixels import Pixels

KEPT = 128


class Picture:
    """Half-block pixels that know their width, so a ``width: auto`` widget is as wide as
    the image (rich-pixels does not measure itself: the widget would take the whole row
    and push what stands beside it, such as a person's name, off the screen)."""

    def __init__(self, pixels: Pixels, width: int) -> None:
        self.pixels, self.width = pixels, width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.pixels

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


_RENDERED: OrderedDict[tuple[bytes, int, int], Picture] = OrderedDict()


def render_pixels(jpeg: bytes, width: int, height: int) -> Picture:
    """``jpeg`` scaled to fit ``width`` x ``height`` cells (two pixels a cell, vertically)."""
    key = (hashlib.blake2b(jpeg, digest_size=16).digest(), width, height)
    if key in _RENDERED:
        _RENDERED.move_to_end(key)
        return _RENDERED[key]
    from rich_pixels import Pixels  # here, in the worker thread: the first screen paints without Pillow

    from corpdir.service.images import open_image

    with open_image(jpeg, fit=(width, height * 2)) as image:
        image = image.convert("RGB")
        image.thumbnail((width, height * 2))
        pixels = Picture(Pixels.from_image(image), image.width)
    _RENDERED[key] = pixels
    while len(_RENDERED) > KEPT:
        _RENDERED.popitem(last=False)
    return pixels


class PhotoView(Static):
    """Shows an image, or a short text when there is none."""

    DEFAULT_CSS = """
    PhotoView { width: auto; height: auto; min-height: 1; color: $text-muted; }
    """

    def __init__(self, *, cells: tuple[int, int] = (20, 10), id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self.cells = cells

    async def show(self, jpeg: bytes | None, placeholder: str = "no photo") -> None:
        if not jpeg:
            self.update(placeholder)
            return
        from corpdir.service.images import ImageTooLarge

        try:
            pixels = await asyncio.to_thread(render_pixels, jpeg, *self.cells)
        except ImageTooLarge as exc:
            self.update(f"(not shown: {exc})")
            return
        except (OSError, ValueError):
            self.update("(image cannot be shown)")
            return
        self.update(pixels)
