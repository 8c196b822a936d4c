"""Paging a directory for phones that show a screenful: pages of at most N rows, one row
per number, so a page starts at an entry and holds the entries whose numbers fit."""

from __future__ import annotations

from dataclasses import dataclass

from corpdir.service.phonebook import Entry, Phonebook


@dataclass
class Page:
    entries: list[Entry]
    start: int  # index of the first entry
    next_start: int | None
    prev_start: int | None
    total: int


def _fit(entries: list[Entry], rows: int) -> int:
    """How many of ``entries`` (from the first) fit in ``rows`` rows (at least one)."""
    used = count = 0
    for entry in entries:
        n = max(1, len(entry.dialable_numbers()))
        if count and used + n > rows:
            break
        used, count = used + n, count + 1
    return count


async def page(phonebook: Phonebook, start: int, rows: int) -> Page:
    start = max(0, start)
    total, window = await phonebook.window(start, rows)
    taken = _fit(window, rows)
    entries = window[:taken]
    prev_start = None
    if start > 0:
        back = max(0, start - rows)
        _, before = await phonebook.window(back, start - back)
        prev_start = start - _fit(list(reversed(before)), rows)
    next_start = start + taken if start + taken < total else None
    return Page(entries, start, next_start, prev_start, total)
