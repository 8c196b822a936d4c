"""Paging a directory for phones that show a screenful, and the directory as paged.

A page starts at an entry and holds the entries that fit its limit (rows: one per number;
for Cisco also bytes). Pages are laid out once, forward from the first entry, for each
state of the cache and each limit, so every page's Prev leads to exactly the page whose
Next led here: a page laid out backwards from where it ends starts one entry off whenever
the entries before it have more numbers than those after. A start that is not a page's
(typed by hand, or from before a sync) shows the page holding that entry.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Hashable

from corpdir.gateway.names import Distinct
from corpdir.service.phonebook import Entry, Phonebook

Cost = Callable[[Entry], tuple[int, int]]  # (rows, bytes) an entry takes on a page


@dataclass
class Page:
    entries: list[Entry]
    start: int  # index of the first entry
    next_start: int | None
    prev_start: int | None
    total: int


def layout(entries: list[Entry], cost: Cost, rows: int, budget: int | None = None) -> list[int]:
    """The index each page starts at: as many entries as fit ``rows`` rows and ``budget``
    bytes (at least one a page, so an entry too large alone still has its page)."""
    starts, used_rows, used_bytes = [0] if entries else [], 0, 0
    for i, entry in enumerate(entries):
        n, size = cost(entry)
        n = max(1, n)
        if i > starts[-1] and (used_rows + n > rows or (budget is not None and used_bytes + size > budget)):
            starts.append(i)
            used_rows = used_bytes = 0
        used_rows, used_bytes = used_rows + n, used_bytes + size
    return starts


def page_at(entries: list[Entry], starts: list[int], start: int) -> Page:
    """The page holding entry ``start``, with its neighbours' starts."""
    if not starts:
        return Page([], 0, None, None, 0)
    k = max(0, bisect_right(starts, max(0, start)) - 1)
    end = starts[k + 1] if k + 1 < len(starts) else len(entries)
    return Page(entries[starts[k]:end], starts[k], starts[k + 1] if k + 1 < len(starts) else None,
                starts[k - 1] if k > 0 else None, len(entries))


class Listing:
    """Every entry in reading order, who shares a name with whom (:class:`Distinct`), and
    each limit's page layout, made again only when the cache changed."""

    def __init__(self, phonebook: Phonebook) -> None:
        self.phonebook = phonebook
        self._version: int | None = None
        self._entries: list[Entry] = []
        self._names = Distinct(())
        self._layouts: dict[Hashable, list[int]] = {}
        self._lock = asyncio.Lock()

    async def current(self) -> tuple[list[Entry], Distinct]:
        async with self._lock:
            version = self.phonebook.version()
            if version != self._version:
                entries = (await self.phonebook.window())[1]
                self._names = await asyncio.to_thread(Distinct, entries)
                self._entries, self._version, self._layouts = entries, version, {}
            return self._entries, self._names

    async def page(self, key: Hashable, start: int, cost: Cost, rows: int, budget: int | None = None) -> Page:
        """The page at ``start`` under the limit named ``key`` (its cost, rows and budget)."""
        entries, _ = await self.current()
        starts = self._layouts.get(key)
        if starts is None:
            starts = self._layouts[key] = await asyncio.to_thread(layout, entries, cost, rows, budget)
        return page_at(entries, starts, start)
