"""Face photos and business-card images, drawn with Pillow.

Photos are head-and-shoulders silhouettes in per-user colours: distinct enough to tell
people apart in the TUI, and obviously not real faces. Cards are white cards with the
contact's ASCII lines (romaji name, company, numbers, mail) in Pillow's built-in font,
because a font that renders Japanese is not guaranteed on every machine.

Each image takes its colours from a ``random.Random`` seeded by (tenant seed, record id),
so an image does not depend on how many others were drawn, and the JPEG bytes are the
same on every run.
"""

from __future__ import annotations

import colorsys
import io
import random
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

PHOTO_SIZE = 256
CARD_SIZE = (600, 350)


def _rgb(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return int(r * 255), int(g * 255), int(b * 255)


def _jpeg(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, optimize=False)
    return out.getvalue()


def face_photo(seed: int, user_id: int) -> bytes:
    """A 256x256 JPEG avatar: coloured background, head and shoulders, a hair shape."""
    rng = random.Random(f"photo/{seed}/{user_id}")
    hue = rng.random()
    image = Image.new("RGB", (PHOTO_SIZE, PHOTO_SIZE), _rgb(hue, 0.25, 0.95))
    draw = ImageDraw.Draw(image)
    skin = _rgb(0.07 + rng.uniform(-0.02, 0.02), rng.uniform(0.25, 0.45), rng.uniform(0.75, 0.95))
    clothes = _rgb(hue + rng.uniform(0.3, 0.7), rng.uniform(0.4, 0.8), rng.uniform(0.35, 0.75))
    hair = _rgb(rng.uniform(0.0, 0.1), rng.uniform(0.2, 0.6), rng.uniform(0.08, 0.35))
    # shoulders
    width = rng.randrange(170, 215)
    draw.ellipse((128 - width // 2, 175, 128 + width // 2, 175 + 2 * 110), fill=clothes)
    draw.rectangle((112, 150, 144, 190), fill=skin)  # neck
    # head
    rx, ry = rng.randrange(42, 52), rng.randrange(50, 60)
    cy = 110
    draw.ellipse((128 - rx, cy - ry, 128 + rx, cy + ry), fill=skin)
    # hair: a cap over the top of the head, with one of a few cuts
    cut = rng.randrange(3)
    draw.chord((128 - rx - 4, cy - ry - 8, 128 + rx + 4, cy + ry - 20), 180, 360, fill=hair)
    if cut == 1:  # long hair falling to the shoulders
        draw.rectangle((128 - rx - 4, cy - 10, 128 - rx + 10, cy + 60), fill=hair)
        draw.rectangle((128 + rx - 10, cy - 10, 128 + rx + 4, cy + 60), fill=hair)
    elif cut == 2:  # a side parting
        draw.pieslice((128 - rx - 4, cy - ry - 8, 128 + rx + 4, cy + ry), 200, 300, fill=hair)
    return _jpeg(image, 82)


@lru_cache(maxsize=8)
def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


@lru_cache(maxsize=1024)
def _glyph(size: int, ch: str) -> tuple[Image.Image, float]:
    """One character's mask and advance. Cards reuse a few dozen ASCII glyphs, and
    rendering them once is three times faster than letting FreeType lay out every line."""
    font = _font(size)
    left, top, right, bottom = font.getbbox(ch)
    mask = Image.new("L", (max(1, right), max(1, bottom)), 0)
    ImageDraw.Draw(mask).text((0, 0), ch, fill=255, font=font)
    return mask, font.getlength(ch)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], line: str, size: int, fill: tuple[int, int, int]) -> None:
    x, y = float(xy[0]), xy[1]
    for ch in line:
        mask, advance = _glyph(size, ch)
        if not ch.isspace():
            draw.bitmap((round(x), y), mask, fill=fill)
        x += advance


def business_card(seed: int, contact: dict[str, Any], company_english: str) -> bytes:
    """A 600x350 JPEG card with the contact's ASCII details."""
    rng = random.Random(f"card/{seed}/{contact['contactId']}")
    accent = _rgb(rng.random(), 0.6, 0.6)
    image = Image.new("RGB", CARD_SIZE, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    # company mark and band
    if rng.random() < 0.5:
        draw.ellipse((30, 28, 78, 76), fill=accent)
    else:
        draw.rectangle((30, 28, 78, 76), fill=accent)
    draw.rectangle((0, CARD_SIZE[1] - 14, CARD_SIZE[0], CARD_SIZE[1]), fill=accent)
    _text(draw, (92, 36), company_english, 20, (40, 40, 40))
    name = contact.get("fullnameAlphabet") or ""
    _text(draw, (30, 120), name, 34, (0, 0, 0))
    lines = []
    for label, field in (("TEL", "phoneNum"), ("Mobile", "companyMobileNum"), ("FAX", "faxNum")):
        if contact.get(field):
            lines.append(f"{label}  {contact[field]}")
    if contact.get("email1"):
        lines.append(f"Mail  {contact['email1']}")
    if contact.get("companyUrl"):
        lines.append(contact["companyUrl"])
    y = 190
    for line in lines[:5]:
        _text(draw, (30, y), line, 16, (60, 60, 60))
        y += 24
    return _jpeg(image, 80)
