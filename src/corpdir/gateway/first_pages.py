"""The pages of a directory a phone asks for before the whole of it is read.

Reading, telling apart and laying out 200k entries takes tens of seconds, and a desk phone
gives up on a page after a few (a Cisco IP phone among the first): the first page after a start
must not wait for the last entry. Here the directory is read from its first entry, a few
pages' worth at a time, only as far as the pages asked for lie; who shares a name with an
entry read is found through the cache's name index (:meth:`Phonebook.namesakes`), so each
entry is told apart among everyone of its name, as over the whole directory
(:class:`corpdir.gateway.names.Distinct`); and each limit is laid out forward as far as the
entries read (:class:`corpdir.gateway.pages.Layout`). A page is thus the very page of the
whole layout: same entries, same names, same Next and Prev.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Hashable

from corpdir.gateway.names import Distinct, name_key
from corpdir.gateway.pages import Costs, Layout, Page
from corpdir.service.phonebook import Entry, Phonebook

AHEAD = 64  # entries read past where a page is asked for: Cisco and Snom show 32 and 50 rows


class Stale(Exception):
    """The cache changed while its first pages were read: they are another state's."""


class FirstPages:
    """One state of the cache (``version``), read and laid out as far as pages were asked."""

    def __init__(self, phonebook: Phonebook, version: int, whole: tuple[list[Entry], Distinct] | None = None) -> None:
        """``whole``: every entry, told apart, when they are read but this limit is not laid out yet."""
        self.phonebook, self.version = phonebook, version
        self.entries, self.names = whole or ([], Distinct(()))  # names: everyone of the names of ``entries``
        self._named: set[str] = set()
        self._whole = whole is not None
        self._total: int | None = len(self.entries) if whole else None
        self._layouts: dict[Hashable, Layout] = {}
        self._lock = asyncio.Lock()

    async def total(self) -> int:
        async with self._lock:
            if self._total is None:
                total = (await self.phonebook.window(0, 0))[0]
                if self.phonebook.version() != self.version:
                    raise Stale
                self._total = total
            return self._total

    async def page(self, key: Hashable, start: int, costs: Costs, rows: int,
                   budget: int | None = None) -> tuple[Page, Distinct] | None:
        """The page holding entry ``start`` under the limit ``key``, with who it tells apart
        how; None when the cache's name index does not find an entry's own name (a name
        only the whole directory can tell apart)."""
        async with self._lock:
            laid = self._layouts.get(key)
            if laid is None:
                laid = self._layouts[key] = Layout(costs(self.names), rows, budget)
            while self._total is None or (found := laid.page(self.entries, max(0, start), self._total)) is None:
                upto = max(laid.laid, start) + AHEAD
                if not await self._read(upto):
                    return None
                await asyncio.to_thread(laid.extend, self.entries, upto)
            return found, self.names

    async def told_apart(self, entries: list[Entry]) -> Distinct | None:
        """Who of ``entries`` (a search's) is told apart how, as over the whole directory;
        None when the name index misses one of them."""
        async with self._lock:
            return self.names if await self._tell_apart([e for e in entries if e.ref]) else None

    async def _read(self, upto: int) -> bool:
        """Read the entries up to ``upto`` and tell them apart (False: the name index
        misses one of them)."""
        if self._total is not None and len(self.entries) >= min(upto, self._total):
            return True
        total, more = await self.phonebook.window(len(self.entries), upto - len(self.entries))
        if not more and len(self.entries) < total:  # read between a sync's commits
            raise Stale
        if not await self._tell_apart(more):
            return False
        self.entries += more
        self._total = total
        return True

    async def _tell_apart(self, entries: list[Entry]) -> bool:
        """Find everyone of the names of ``entries`` not seen yet and tell them apart
        (False: the name index misses one of ``entries``)."""
        if self._whole:
            return True
        keys = {name_key(entry.name) for entry in entries} - self._named
        same: dict[str, list[Entry]] = defaultdict(list)
        for entry in await self.phonebook.namesakes(keys) if keys else ():
            if (key := name_key(entry.name)) in keys:
                same[key].append(entry)
        if self.phonebook.version() != self.version:
            raise Stale
        told = {entry.ref for group in same.values() for entry in group}
        if any(entry.ref not in told for entry in entries if name_key(entry.name) in keys):
            return False
        await asyncio.to_thread(self.names.add, [entry for group in same.values() for entry in group])
        self._named |= keys
        return True
