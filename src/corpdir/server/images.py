"""JPEG checks and thumbnails (Pillow).

An upload is JPEG when its bytes are (SOI marker and Pillow decodes it as JPEG); the
Content-Type header alone does not count. Only the header is read here: an image over
``corpdir.spec.images.MAX_IMAGE_PIXELS`` is refused before anything decodes it.

A thumbnail is decoded at a reduced scale (``draft``), which costs little for a baseline
JPEG but not for a progressive one: libjpeg keeps every coefficient of the whole image
until the last scan (2-6 bytes a pixel: +119 MB for a 235 KB 6320x6320 one). Progressive
images are therefore held to a lower pixel limit, and thumbnails are decoded by
``CONCURRENT_DECODES`` threads of their own: ten such uploads at once cost two decodes'
memory, not ten (the same threads, too: each thread's malloc arena keeps what a decode
freed, so decodes spread over the request threads would leave ten arenas holding it).
"""

from __future__ import annotations

import io
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from corpdir.spec.images import MAX_IMAGE_PIXELS_WORDS, over_pixel_limit

THUMBNAIL_SIZE = (160, 160)
MAX_PROGRESSIVE_PIXELS = 16_000_000
"""A progressive JPEG's limit: its decode holds 32-96 MB of coefficients at this size."""
MAX_PROGRESSIVE_PIXELS_WORDS = "at most 16,000,000 pixels (16 Mpx, e.g. 4000x4000) in a progressive JPEG"
CONCURRENT_DECODES = 2
_decoders = ThreadPoolExecutor(CONCURRENT_DECODES, thread_name_prefix="corpdir-thumbnail")


@dataclass(frozen=True)
class JpegCheck:
    is_jpeg: bool
    too_many_pixels: bool = False
    size: tuple[int, int] | None = None  # None when Pillow refused even to read it (a bomb)
    progressive: bool = False

    @property
    def pixel_limit_words(self) -> str:
        """The pixel limit that applies to this image, in words."""
        return MAX_PROGRESSIVE_PIXELS_WORDS if self.progressive else MAX_IMAGE_PIXELS_WORDS


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
                width, height = image.size
                progressive = bool(image.info.get("progressive"))
                too_many = over_pixel_limit(width, height) or (progressive and width * height > MAX_PROGRESSIVE_PIXELS)
                return JpegCheck(True, too_many, image.size, progressive)
    except Image.DecompressionBombError:  # over twice Pillow's limit: far over ours
        return JpegCheck(True, True)
    except (UnidentifiedImageError, OSError):
        return JpegCheck(False)


def thumbnail(jpeg: bytes) -> bytes:
    """A JPEG at most 160x160, same aspect ratio, for lists and avatars."""
    return _decoders.submit(_thumbnail, jpeg).result()


def _thumbnail(jpeg: bytes) -> bytes:
    with Image.open(io.BytesIO(jpeg)) as image:
        image.draft("RGB", THUMBNAIL_SIZE)  # decode at a reduced scale: fast for big photos
        small = image.convert("RGB")
        small.thumbnail(THUMBNAIL_SIZE)
        out = io.BytesIO()
        small.save(out, format="JPEG", quality=85)
        return out.getvalue()
