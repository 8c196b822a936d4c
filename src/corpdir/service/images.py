"""Images to upload (U7 face photos, X5/X7 business cards): the service takes JPEG only.

A JPEG file is sent as it is; any other image Pillow can read (PNG, GIF, WebP, BMP ...)
is converted to JPEG; anything else is refused with a sentence saying why. An image over
the interface's pixel limit (spec/images.py) is refused from its header, before anything
decodes it, here and when a received photo is shown (:func:`open_image`).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from corpdir.spec.images import MAX_IMAGE_PIXELS_WORDS, over_pixel_limit

if TYPE_CHECKING:
    from PIL import Image

JPEG_MAGIC = b"\xff\xd8\xff"
MAX_BYTES = 10 * 1024 * 1024  # the reference service's limit (http-contract.md: 413 above)


class NotAnImage(ValueError):
    """The file cannot be sent as a JPEG image."""


class ImageTooLarge(NotAnImage):
    """The image has more pixels than the interface's limit."""


def open_image(data: bytes, name: str = "the image", fit: tuple[int, int] | None = None) -> Image.Image:
    """``data`` opened by Pillow, not yet decoded: ImageTooLarge (naming its size) if its
    header declares more pixels than the limit. With ``fit``, a JPEG is set to decode at
    the smallest of 1/1, 1/2, 1/4, 1/8 scale that still covers ``fit`` (``Image.draft``):
    an 8000x5000 photo shown in 80x40 pixels decodes as 1000x625, a 64th of the memory."""
    from PIL import Image

    try:
        image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:  # Pillow's own guard, at over 4x our limit
        raise ImageTooLarge(f"{name} has far too many pixels: {MAX_IMAGE_PIXELS_WORDS} are accepted") from None
    width, height = image.size
    if over_pixel_limit(width, height):
        image.close()
        raise ImageTooLarge(f"{name} is {width}x{height} pixels: {MAX_IMAGE_PIXELS_WORDS} are accepted")
    if fit is not None:
        image.draft("RGB", fit)
    return image


def as_jpeg(data: bytes, name: str = "the file") -> bytes:
    if data.startswith(JPEG_MAGIC):
        from PIL import UnidentifiedImageError

        try:
            open_image(data, name).close()  # its header only: a JPEG over the pixel limit is refused here
        except (UnidentifiedImageError, OSError):
            pass  # the service judges a JPEG Pillow cannot read, as before
        return data
    from PIL import Image, UnidentifiedImageError

    try:
        with open_image(data, name) as image:
            image.load()
            if image.mode in ("RGBA", "LA", "P"):
                image = image.convert("RGBA")
                flat = Image.new("RGB", image.size, "white")
                flat.paste(image, mask=image.getchannel("A"))
                image = flat
            else:
                image = image.convert("RGB")
            out = io.BytesIO()
            image.save(out, "JPEG", quality=90)
    except ImageTooLarge:
        raise
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise NotAnImage(f"{name} is not an image that can be converted to JPEG ({exc.__class__.__name__})") from None
    return out.getvalue()


def read_jpeg(path: str | Path) -> bytes:
    """The file at ``path`` as JPEG bytes (converted if needed); NotAnImage if it cannot be."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise NotAnImage(f"{path} is not a file")
    data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise NotAnImage(f"{path.name} is larger than 10 MiB")
    jpeg = as_jpeg(data, path.name)
    if len(jpeg) > MAX_BYTES:
        raise NotAnImage(f"{path.name} is larger than 10 MiB as JPEG")
    return jpeg
