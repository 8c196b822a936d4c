"""Paging a directory for phones that show a screenful, and the directory as paged.

A page starts at an entry and holds the entries that fit its limit (rows: one per number;
for Cisco also bytes). Pages are laid out once, forward from the first entry, for each
state of the cache and each limit, so every page's Prev leads to exactly the page whose
Next led here: a page laid out backwards from where it ends starts one entry off whenever
the entries before it have more numbers than those after. A start that is not a page's
(typed by hand, or from before a sync) shows the page holding that entry.

A :class:`Layout` goes as far as it is given entries: the pages it has laid out are those
of the whole directory, since where a page starts depends only on the entries before it
(what :mod:`corpdir.gateway.listing` serves the first pages from before the whole is read).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Sequence

from corpdir.gateway.names import Distinct
from corpdir.service.phonebook import Entry

Cost = Callable[[Entry], tuple[int, int]]  # (rows, bytes) an entry takes on a page
Costs = Callable[[Distinct], Cost]  # a limit's cost, given who is told apart how


@dataclass
class Page:
    entries: list[Entry]
    start: int  # index of the first entry
    next_start: int | None
    prev_start: int | None
    total: int


class Layout:
    """Where pages start, laid out forward as far as entries are given: as many entries a
    page as fit ``rows`` rows and ``budget`` bytes (at least one, so an entry too large alone
    still has its page)."""

    def __init__(self, cost: Cost, rows: int, budget: int | None = None) -> None:
        self.cost, self.rows, self.budget = cost, rows, budget
        self.starts: list[int] = []
        self.laid = 0  # entries laid out so far
        self._rows = self._bytes = 0  # taken on the last page so far

    def extend(self, entries: Sequence[Entry], upto: int | None = None) -> None:
        """Lay out ``entries[self.laid:upto]``."""
        starts, rows, budget = self.starts, self.rows, self.budget
        upto = len(entries) if upto is None else min(upto, len(entries))
        for i in range(self.laid, upto):
            n, size = self.cost(entries[i])
            n = max(1, n)
            if not starts or (self._rows + n > rows or (budget is not None and self._bytes + size > budget)):
                starts.append(i)
                self._rows = self._bytes = 0
            self._rows, self._bytes = self._rows + n, self._bytes + size
        self.laid = max(self.laid, upto)

    def page(self, entries: Sequence[Entry], start: int, total: int) -> Page | None:
        """The page holding entry ``start`` of ``total``, or None while where it ends is not laid out yet."""
        if self.laid < total and not (self.starts and self.starts[-1] > start):
            return None
        return page_at(entries, self.starts, start, total)


def layout(entries: Sequence[Entry], cost: Cost, rows: int, budget: int | None = None) -> list[int]:
    """The index each page of ``entries`` starts at (:class:`Layout`)."""
    laid = Layout(cost, rows, budget)
    laid.extend(entries)
    return laid.starts


def page_at(entries: Sequence[Entry], starts: list[int], start: int, total: int | None = None) -> Page:
    """The page holding entry ``start``, with its neighbours' starts (``total``: how many
    entries in all, when ``entries`` are only those read so far)."""
    total = len(entries) if total is None else total
    if not starts:
        return Page([], 0, None, None, 0)
    k = max(0, bisect_right(starts, max(0, start)) - 1)
    end = starts[k + 1] if k + 1 < len(starts) else len(entries)
    return Page(list(entries[starts[k]:end]), starts[k], starts[k + 1] if k + 1 < len(starts) else None,
                starts[k - 1] if k > 0 else None, total)
