"""Phone numbers for the demo: unique across the whole tenant, Japanese in shape.

One allocator hands out every landline, mobile and extension, so a number that rings
identifies exactly one user or contact (except the deliberate duplicates), and the
caller-ID lookup in the demo has a single right answer. Numbers are written the way
people write them ('03-1234-5678'); a few are written in other PHONE_CHARS forms
('+81-3-1234-5678', '0312345678', '+81312345678') so lookup normalization has something
to normalize. Spaces and parentheses never appear: PHONE_CHARS forbids them.
"""

from __future__ import annotations

import random

MOBILE_PREFIXES = ("090", "080", "070")


def national_digits(number: str) -> str:
    """'+81-3-1234-5678' -> '0312345678': the key two spellings of one number share."""
    d = "".join(ch for ch in number if ch.isdigit())
    return "0" + d[2:] if number.startswith("+81") else d


def alternative_form(number: str, rng: random.Random) -> str:
    """The same number as a PBX or a pasted business card might write it."""
    national = national_digits(number)
    style = rng.randrange(3)
    if style == 0:  # international with hyphens: +81-3-1234-5678
        return "+81-" + number[1:]
    if style == 1:  # digits only: 0312345678
        return national
    return "+81" + national[1:]  # E.164: +81312345678


class NumberPlan:
    """Allocates unique numbers. ``used`` holds national digit strings of every number given out."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def _claim(self, national: str) -> bool:
        if national in self.used:
            return False
        self.used.add(national)
        return True

    def landline(self, area_code: str) -> str:
        """'03-5123-4567' for two-digit area codes, '045-312-3456' for three-digit ones."""
        local_len = 10 - len(area_code)
        mid = local_len - 4
        randrange = self.rng.randrange
        while True:
            local = str(randrange(2 * 10 ** (local_len - 1), 10 ** local_len))
            if self._claim(area_code + local):
                return f"{area_code}-{local[:mid]}-{local[mid:]}"

    def near(self, number: str) -> str:
        """A number in the same block as ``number`` (a direct line beside a main number)."""
        area, mid, last = number.split("-")
        randrange = self.rng.randrange
        for _ in range(50):
            cand = f"{randrange(10000):04d}"
            if self._claim(area + mid + cand):
                return f"{area}-{mid}-{cand}"
        return self.landline(area)

    def mobile(self) -> str:
        """'090-1234-5678'."""
        randrange = self.rng.randrange
        while True:
            prefix = MOBILE_PREFIXES[randrange(3)]
            body = str(randrange(10_000_000, 100_000_000))
            if self._claim(prefix + body):
                return f"{prefix}-{body[:4]}-{body[4:]}"

    def unknown(self, area_code: str = "03") -> str:
        """A number no record in the tenant has (for 'who was that?' calls)."""
        return self.landline(area_code) if self.rng.random() < 0.6 else self.mobile()


def extensions(count: int, rng: random.Random) -> list[str]:
    """``count`` unique extension numbers: 4 digits while they fit, else 5 or 6."""
    for width in (4, 5, 6, 7):
        low, high = 10 ** (width - 1) * 2, 10 ** width  # no leading 0 or 1: those dial out
        if count <= (high - low) * 0.8:
            return [str(n) for n in rng.sample(range(low, high), count)]
    raise ValueError(f"too many extensions: {count}")
