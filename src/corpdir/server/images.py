"""JPEG checks and thumbnails (Pillow).

An upload is JPEG when its bytes are (SOI marker and Pillow decodes it as JPEG); the
Content-Type header alone does not count. Only the header is read here: an image over
``corpdir.spec.images.MAX_IMAGE_PIXELS`` is refused before anything decodes it.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from corpdir.spec.images import over_pixel_limit

THUMBNAIL_SIZE = (160, 160)


@dataclass(frozen=True)
class JpegCheck:
    is_jpeg: bool
    too_many_pixels: bool = False
    size: tuple[int, int] | None = None  # None when Pillow refused even to read it (a bomb)


def check_jpeg(data: bytes) -> JpegCheck:
    """Whether ``data`` is a JPEG, and whether it is over the pixel limit (header only)."""
    if not data.startswith(b"\xff\xd8\xff"):
        return JpegCheck(False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                if image.format != "JPEG":
                    return JpegCheck(False)
                return JpegCheck(True, over_pixel_limit(*image.size), image.size)
    except Image.DecompressionBombError:  # over twice Pillow's limit: far over ours
        return JpegCheck(True, True)
    except (UnidentifiedImageError, OSError):
        return JpegCheck(False)


def thumbnail(jpeg: bytes) -> bytes:
    """A JPEG at most 160x160, same aspect ratio, for lists and avatars."""
    with Image.open(io.BytesIO(jpeg)) as image:
        image.draft("RGB", THUMBNAIL_SIZE)  # decode at a reduced scale: fast for big photos
        small = image.convert("RGB")
        small.thumbnail(THUMBNAIL_SIZE)
        out = io.BytesIO()
        small.save(out, format="JPEG", quality=85)
        return out.getvalue()
