"""JPEG checks and thumbnails (Pillow).

An upload is JPEG when its bytes are (SOI marker and Pillow decodes it as JPEG); the
Content-Type header alone does not count.
"""

from __future__ import annotations

import io

from PIL import Image, UnidentifiedImageError

THUMBNAIL_SIZE = (160, 160)


def is_jpeg(data: bytes) -> bool:
    if not data.startswith(b"\xff\xd8\xff"):
        return False
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.format == "JPEG"
    except (UnidentifiedImageError, OSError):
        return False


def thumbnail(jpeg: bytes) -> bytes:
    """A JPEG at most 160x160, same aspect ratio, for lists and avatars."""
    with Image.open(io.BytesIO(jpeg)) as image:
        image.draft("RGB", THUMBNAIL_SIZE)  # decode at a reduced scale: fast for big photos
        small = image.convert("RGB")
        small.thumbnail(THUMBNAIL_SIZE)
        out = io.BytesIO()
        small.save(out, format="JPEG", quality=85)
        return out.getvalue()
