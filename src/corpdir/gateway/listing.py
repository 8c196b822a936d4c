"""The directory as the gateway serves it: every entry in reading order, who shares a name
with whom (:class:`Distinct`), and each limit's page layout, made again only when the cache
changed.

Made whole, that is tens of seconds at 200k entries (read in batches on the phonebook's
worker, told apart and laid out on threads), in the background: a page asked for before
then comes from :class:`FirstPages`, which reads only as far as that page, and is the same
page; a search's entries are told apart the same way. While a sync commits faster than the
first pages can be read, a page comes from the state before it, whole, as it did before the
sync. Whole directories (Yealink, Grandstream) wait for the whole.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Hashable, TypeVar

from corpdir.gateway.first_pages import FirstPages, Stale
from corpdir.gateway.names import Distinct
from corpdir.gateway.pages import Costs, Page, layout, page_at
from corpdir.service.phonebook import Entry, Phonebook

log = logging.getLogger("corpdir.gateway")
TRIES = 3  # first pages read again when the cache changed meanwhile, before waiting for the whole
T = TypeVar("T")


class Listing:
    def __init__(self, phonebook: Phonebook) -> None:
        self.phonebook = phonebook
        self._version: int | None = None
        self._entries: list[Entry] = []
        self._names = Distinct(())
        self._layouts: dict[Hashable, list[int]] = {}
        self._laying: dict[Hashable, asyncio.Task[None]] = {}  # whole layouts under way
        self._lock = asyncio.Lock()
        self._first: FirstPages | None = None
        self._warming: asyncio.Task[int] | None = None

    async def current(self) -> tuple[list[Entry], Distinct]:
        """Every entry and who is told apart how, for the cache's state (read whole if need be)."""
        async with self._lock:
            version = self.phonebook.version()
            if version != self._version:
                entries = [entry async for batch in self.phonebook.batches() for entry in batch]
                names = await asyncio.to_thread(Distinct, entries)
                self._entries, self._names, self._version, self._layouts = entries, names, version, {}
            return self._entries, self._names

    def _whole(self) -> bool:
        return self._version == self.phonebook.version()

    async def total(self) -> int:
        """How many entries the directory has."""
        if self._whole():
            return len(self._entries)
        found = await self._ask_first(lambda first: first.total())
        if found is None and self._version is None:
            return len((await self.current())[0])
        return found if found is not None else len(self._entries)  # as the page: the state before a sync

    async def told_apart(self, entries: list[Entry]) -> Distinct:
        """Who of ``entries`` (a search's) is told apart how: from the whole once read, else
        found by their names alone (a search before then does not wait for the whole)."""
        if self._whole():
            return self._names
        names = await self._ask_first(lambda first: first.told_apart(entries))
        return names if names is not None else (await self.current())[1]

    async def page(self, key: Hashable, start: int, costs: Costs, rows: int,
                   budget: int | None = None) -> tuple[Page, Distinct]:
        """The page at ``start`` under the limit named ``key`` (its cost, rows and budget),
        and who it tells apart how: from the whole layout once it is made, else from the
        first pages (the whole layout is then made in the background)."""
        if self._whole() and key in self._layouts:
            return page_at(self._entries, self._layouts[key], start), self._names
        found = await self._ask_first(lambda first: first.page(key, start, costs, rows, budget))
        if found is not None or key in self._layouts:
            self._lay_out(key, costs, rows, budget)
            # a sync that commits faster than the first pages are read: the state before it, whole
            return found or (page_at(self._entries, self._layouts[key], start), self._names)
        entries, names = await self.current()  # the name index cannot tell them apart: the whole must
        if key not in self._layouts:
            self._layouts[key] = await asyncio.to_thread(layout, entries, costs(names), rows, budget)
        return page_at(entries, self._layouts[key], start), names

    def warm(self) -> None:
        """Read the reading order (the total, and where the first pages start) now, in the background."""
        self._warming = asyncio.create_task(self.total())
        self._warming.add_done_callback(_logged)

    async def settled(self) -> None:
        """Wait for the layouts under way (a bench or test that wants the whole laid out)."""
        await asyncio.gather(*self._laying.values())

    async def close(self) -> None:
        """Stop what runs in the background (the phonebook is closing)."""
        tasks = [*self._laying.values(), *([self._warming] if self._warming else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _ask_first(self, ask: Callable[[FirstPages], Awaitable[T | None]]) -> T | None:
        """``ask`` this state's first pages, again if the cache changed meanwhile (None:
        only the whole can answer)."""
        for _ in range(TRIES):
            try:
                return await ask(self._first_pages())
            except Stale:
                continue
        return None

    def _first_pages(self) -> FirstPages:
        """This state's first pages: read as far as asked, or laid out over the whole once it is read."""
        version = self.phonebook.version()
        whole = self._whole()
        if self._first is None or self._first.version != version or whole and self._first.entries is not self._entries:
            self._first = FirstPages(self.phonebook, version, (self._entries, self._names) if whole else None)
        return self._first

    def _lay_out(self, key: Hashable, costs: Costs, rows: int, budget: int | None) -> None:
        """Read the whole directory and lay it out under ``key``, in the background."""
        running = self._laying.get(key)
        if running is not None and not running.done():
            return

        async def lay_out() -> None:
            entries, names = await self.current()
            if key in self._layouts:
                return
            starts = await asyncio.to_thread(layout, entries, costs(names), rows, budget)
            if self._entries is entries:  # not a sync's older state
                self._layouts[key] = starts

        self._laying[key] = task = asyncio.create_task(lay_out())
        task.add_done_callback(_logged)


def _logged(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.warning("reading the directory ahead failed (%s); it is read again on a phone's request", exc.__class__.__name__)
