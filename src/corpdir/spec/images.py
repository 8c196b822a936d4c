"""Limits on the images the interface carries (face photos, business-card images).

The spec limits an upload's bytes (413 above 10 MiB here) but not its pixels, and a small
JPEG can declare 20000x20000 pixels: decoding it takes gigabytes. Both ends hold images
to one pixel limit, well under Pillow's own decompression-bomb guard (~179 Mpx, which
answered 500): the server refuses larger uploads with 413 PAYLOAD_TOO_LARGE, and the
client does not decode larger images it is sent.
"""

from __future__ import annotations

MAX_IMAGE_PIXELS = 40_000_000
"""Width x height of the largest image accepted or decoded (40 Mpx: an 8000x5000 photo)."""

MAX_IMAGE_PIXELS_WORDS = "at most 40,000,000 pixels (40 Mpx, e.g. 8000x5000)"


def over_pixel_limit(width: int, height: int) -> bool:
    return width * height > MAX_IMAGE_PIXELS
