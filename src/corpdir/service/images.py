"""Images to upload (U7 face photos, X5/X7 business cards): the service takes JPEG only.

A JPEG file is sent as it is; any other image Pillow can read (PNG, GIF, WebP, BMP ...)
is converted to JPEG; anything else is refused with a sentence saying why.
"""

from __future__ import annotations

import io
from pathlib import Path

JPEG_MAGIC = b"\xff\xd8\xff"
MAX_BYTES = 10 * 1024 * 1024  # the reference service's limit (http-contract.md: 413 above)


class NotAnImage(ValueError):
    """The file cannot be sent as a JPEG image."""


def as_jpeg(data: bytes, name: str = "the file") -> bytes:
    if data.startswith(JPEG_MAGIC):
        return data
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
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
