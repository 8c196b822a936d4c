"""Sync: bring a profile's cache up to date through the API client.

- Divisions and users: a full pass (pageSize 100) that marks every record it sees with
  the pass's *generation*; records left unmarked are then checked by id (D1 divisionIds /
  U1 userIds, 50 at a time) and removed only if the service no longer returns them, so a
  list that shifted under the pass never deletes anyone wrongly.
- Contacts: incremental by ``updatedFrom`` (ordered by updatedAt, split into windows by
  the client's X1 iterator past 10,000); ``full=True`` lists all and removes the unseen.
- Folders and personal folders: small, listed whole. Call histories: newest first, down
  to the first page with nothing new (all of them with ``full=True``).

Each page is stored in one transaction together with the pass's checkpoint, so a sync
killed at any point (kill -9 included) leaves a consistent cache, and the next run
resumes after the last stored page: no duplicates, nothing lost. Requests go through the
client, so its rate limiter paces the sync. Store calls go through ``run`` (in the app,
the cache's own thread), and a page is written while the next one is being fetched, so
indexing overlaps the wait for rate-limit tokens.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Literal

from corpdir.cache.records import Changes
from corpdir.cache.store import CacheStore, SyncCheckpoint

if TYPE_CHECKING:
    from corpdir.spec import Page

FetchPage = Callable[[str, dict[str, Any]], Awaitable["Page[Any]"]]
ListPages = Callable[[str, dict[str, Any]], Any]  # async iterator of pages (client pagination)
Progress = Callable[[str, int, int | None], None]  # (resource, records so far, expected total or None)

Runner = Callable[..., Awaitable[Any]]


async def _direct(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


Resource = Literal["divisions", "users", "contacts", "folders", "personal_folders", "calls"]
ALL_RESOURCES: tuple[Resource, ...] = ("divisions", "users", "contacts", "folders", "personal_folders", "calls")
ID_BATCH = 50  # U1 userIds / D1 divisionIds take at most 50
_REQUESTS: contextvars.ContextVar[list[int]] = contextvars.ContextVar("sync_requests")  # of the resource being synced
PAGES_AHEAD = 3  # requests in flight during a full pass
RECORDS_PER_WRITE = 2000  # records of pages that waited for the cache, stored in one transaction (see _PageWriter)


@dataclass
class ResourceSummary:
    added: int = 0
    changed: int = 0
    removed: int = 0
    requests: int = 0
    seconds: float = 0.0
    skipped: str = ""  # why a resource was not synced (variant lacks it, no permission)


@dataclass
class SyncSummary:
    resources: dict[str, ResourceSummary] = field(default_factory=dict)
    seconds: float | None = None  # the whole run: less than its resources' sum when some ran alongside
    compacted: float | None = None  # seconds the compaction after the first sync took (None: not compacted)

    def total(self) -> ResourceSummary:
        out = ResourceSummary()
        for r in self.resources.values():
            out.added += r.added
            out.changed += r.changed
            out.removed += r.removed
            out.requests += r.requests
            out.seconds += r.seconds
        if self.seconds is not None:
            out.seconds = self.seconds
        return out


@dataclass(frozen=True)
class _FullPass:
    resource: Literal["divisions", "users"]
    code: str
    verify_param: str
    id_field: str


_FULL_PASSES = {
    "divisions": _FullPass("divisions", "D1", "divisionIds", "divisionId"),
    "users": _FullPass("users", "U1", "userIds", "userId"),
}


class Syncer:
    """One sync run over a store, fetching pages with ``fetch_page(code, params)``."""

    def __init__(self, store: CacheStore, fetch_page: FetchPage, list_pages: ListPages, *,
                 progress: Progress | None = None, clock: Callable[[], float] = time.time,
                 available: Callable[[str], bool] = lambda code: True, page_size: int = 100,
                 run: Runner = _direct) -> None:
        self.store = store
        self._fetch_page = fetch_page
        self._list_pages = list_pages
        self.progress = progress or (lambda resource, done, total: None)
        self.clock = clock
        self.available = available
        self.page_size = page_size
        self._run = run

    @staticmethod
    def _count() -> None:
        counter = _REQUESTS.get(None)
        if counter is not None:
            counter[0] += 1

    async def _fetch(self, code: str, params: dict[str, Any]) -> Page[Any]:
        self._count()
        return await self._fetch_page(code, params)

    async def run(self, *, full: bool = False, resources: Iterable[Resource] = ALL_RESOURCES) -> SyncSummary:
        """Each resource in turn, except that contacts are synced alongside the users' pass
        when both are asked for: the users' pages wait for the rate limit's tokens (a 100k
        pass is 1,000 requests) while contacts come in few, large pages whose indexing is
        the work, so the contacts' CPU time fits into the users' waits (100k: 95 s users,
        then 40-70 s contacts, one after the other)."""
        wanted = list(resources)
        summary = SyncSummary()
        started = time.monotonic()
        first = "users" in wanted and await self._run(self.store.synced_at, "users") is None
        alongside: asyncio.Future[ResourceSummary] | None = None
        try:
            for resource in wanted:
                if resource == "contacts" and alongside is not None:
                    continue
                if resource == "users" and "contacts" in wanted[wanted.index("users"):]:
                    alongside = asyncio.ensure_future(self._sync_one("contacts", full))
                summary.resources[resource] = await self._sync_one(resource, full)
                if alongside is not None and "contacts" not in summary.resources:
                    summary.resources["contacts"] = await alongside
        finally:
            if alongside is not None and not alongside.done():  # the users' pass failed: stop the contacts too
                alongside.cancel()
                await asyncio.gather(alongside, return_exceptions=True)
        if first:  # the cache just filled from nothing: see CacheStore.compact
            compacting = time.monotonic()
            await self._run(self.store.compact)
            summary.compacted = time.monotonic() - compacting
        summary.seconds = time.monotonic() - started
        return summary

    async def _sync_one(self, resource: Resource, full: bool) -> ResourceSummary:
        counter = [0]
        _REQUESTS.set(counter)
        started = time.monotonic()
        result: ResourceSummary = await getattr(self, f"_sync_{resource}")(full)
        result.requests, result.seconds = counter[0], time.monotonic() - started
        return result

    # -- full passes with deletion detection ----------------------------------------------
    async def _sync_divisions(self, full: bool) -> ResourceSummary:
        return await self._full_pass(_FULL_PASSES["divisions"])

    async def _sync_users(self, full: bool) -> ResourceSummary:
        return await self._full_pass(_FULL_PASSES["users"])

    async def _full_pass(self, spec: _FullPass) -> ResourceSummary:
        result = ResourceSummary()
        if not self.available(spec.code):
            result.skipped = f"{spec.code} is not offered by this service"
            return result
        table = spec.resource
        point = await self._run(self.store.checkpoint, table)
        if point is None or point.completed_at is not None:  # a new pass
            generation = await self._run(self.store.max_generation, table) + 1
            point = SyncCheckpoint(table, generation, 0, None, self.clock(), page_size=self.page_size)
        expected = await self._run(self.store.count_users) if table == "users" else None
        done = 0
        writer = _PageWriter(self, table, result)
        ahead = _PagesAhead(self, spec.code, point.next_page, point.page_size, expected)
        try:
            while True:
                page = await ahead.next()
                point = replace(point, next_page=point.next_page + 1)
                await writer.write(page.items, point)
                done += len(page.items)
                self.progress(table, done, expected)
                if not page.hasMore:
                    break
        finally:
            await ahead.close()
            await writer.finish()  # what was fetched is kept, even when the next fetch fails
        result.removed = await self._remove_unseen(spec, point.generation)
        await self._run(self.store.save_checkpoint, replace(point, completed_at=self.clock()))
        await self._run(self.store.mark_synced, table, self.clock())
        return result

    async def _remove_unseen(self, spec: _FullPass, generation: int) -> int:
        """Unseen records that the service still has (the list shifted) are kept; the rest go."""
        unseen = await self._run(self.store.ids_older_than, spec.resource, generation)
        gone: list[int] = []
        for start in range(0, len(unseen), ID_BATCH):
            batch = unseen[start:start + ID_BATCH]
            page = await self._fetch(spec.code, {spec.verify_param: batch, "pageSize": 100})
            still = {getattr(item, spec.id_field) for item in page.items}
            await self._run(self.store.put, spec.resource, page.items, generation=generation, fetched_at=self.clock())
            gone.extend(i for i in batch if i not in still)
        if gone:
            await self._run(getattr(self.store, f"delete_{spec.resource}"), gone)
        return len(gone)

    # -- contacts: incremental by updatedFrom ----------------------------------------------
    async def _sync_contacts(self, full: bool) -> ResourceSummary:
        result = ResourceSummary()
        if not self.available("X1"):
            result.skipped = "X1 is not offered by this service"
            return result
        point = await self._run(self.store.checkpoint, "contacts")
        resuming = point is not None and point.completed_at is None
        if point is None or (full and not resuming):
            generation = await self._run(self.store.max_generation, "contacts") + 1
            point = SyncCheckpoint("contacts", generation, 0, None, self.clock())
        elif not resuming:  # incremental from the last completed cursor
            point = SyncCheckpoint("contacts", point.generation, 0, point.cursor, self.clock())
        whole = point.cursor is None
        query: dict[str, Any] = {"orderBy": "updatedAt", "orderDirection": "asc"}
        if point.cursor:
            query["updatedFrom"] = point.cursor
        done = 0
        writer = _PageWriter(self, "contacts", result)
        try:
            async for page in self._list_pages("X1", query):
                self._count()
                point = replace(point, cursor=_last_updated(page.items) or point.cursor)
                await writer.write(page.items, point)
                done += len(page.items)
                self.progress("contacts", done, None)
        finally:
            await writer.finish()
        if whole:  # a listing of everything: what it did not see is gone
            unseen = await self._run(self.store.ids_older_than, "contacts", point.generation)
            if unseen:
                await self._run(self.store.delete_contacts, unseen)
            result.removed = len(unseen)
        await self._run(self.store.save_checkpoint, replace(point, completed_at=self.clock()))
        await self._run(self.store.mark_synced, "contacts", self.clock())
        return result

    # -- small lists -------------------------------------------------------------------------
    async def _collect(self, code: str, query: dict[str, Any]) -> list[Any]:
        items: list[Any] = []
        async for page in self._list_pages(code, query):
            self._count()
            items.extend(page.items)
        return items

    async def _sync_folders(self, full: bool) -> ResourceSummary:
        if not self.available("F1"):
            return ResourceSummary(skipped="F1 is not offered by this service")
        folders = await self._collect("F1", {})
        changes = await self._run(self.store.put_folders, folders, fetched_at=self.clock())
        await self._run(self.store.mark_synced, "folders", self.clock())
        return ResourceSummary(added=changes.added, changed=changes.changed, removed=changes.removed)

    async def _sync_personal_folders(self, full: bool) -> ResourceSummary:
        if not self.available("P1"):
            return ResourceSummary(skipped="P1 is not offered by this service")
        folders = await self._collect("P1", {})
        changes = await self._run(self.store.put_personal_folders, folders, fetched_at=self.clock())
        await self._run(self.store.mark_synced, "personal_folders", self.clock())
        return ResourceSummary(added=changes.added, changed=changes.changed)

    async def _sync_calls(self, full: bool) -> ResourceSummary:
        """The user's own call histories, newest first. Once the cache holds a history, a
        page with nothing new or changed ends it: the calls below are the ones stored
        before (a desk with 20,000 calls reads one page of 20, not 1,000 at the rate
        limit's 10 a second). ``full`` reads every page (a note edited on an older call
        elsewhere is picked up then)."""
        result = ResourceSummary()
        for code, direction in (("H1", "incoming"), ("H4", "outgoing")):
            if not self.available(code):
                result.skipped = "call histories are not offered by this service"
                continue
            known = not full and await self._run(self.store.has_calls, direction)
            async for page in self._list_pages(code, {"orderDirection": "desc"}):
                self._count()
                changes = await self._run(self.store.put_calls, direction, page.items, fetched_at=self.clock())
                result.added += changes.added
                result.changed += changes.changed
                if known and page.items and not (changes.added or changes.changed):
                    break
        await self._run(self.store.mark_synced, "calls", self.clock())
        return result


class _PagesAhead:
    """Numbered pages asked a few at a time, answered in order: the next requests wait for
    the rate limit's tokens while a page is on its way, so a pass is paced by the limit,
    not by one round trip after another. Past the rows the cache already had (the last
    pass's count), one page ahead only: a request past the end costs a token."""

    def __init__(self, syncer: Syncer, code: str, first: int, size: int, expected: int | None) -> None:
        self.syncer, self.code, self.size, self.expected = syncer, code, size, expected or 0
        self._next = first
        self._queue: list[asyncio.Future[Page[Any]]] = []

    def _fill(self) -> None:
        while len(self._queue) < (PAGES_AHEAD if (self._next + 1) * self.size <= self.expected else 2):
            self._queue.append(asyncio.ensure_future(self.syncer._fetch(self.code, {"page": self._next, "pageSize": self.size})))
            self._next += 1

    async def next(self) -> Page[Any]:
        self._fill()
        return await self._queue.pop(0)

    async def close(self) -> None:
        """Pages asked but not used (after the last one, or a failure) are dropped."""
        for task in self._queue:
            task.cancel()
        await asyncio.gather(*self._queue, return_exceptions=True)
        self._queue.clear()


class _PageWriter:
    """Stores pages (each with its checkpoint) while the next ones are fetched, one write
    in flight at a time, in order. Pages that arrive while a write is running wait and go
    together into the next one (up to RECORDS_PER_WRITE, with the last page's checkpoint):
    a commit writes every index page it touched to the WAL, and one page of 100 people
    touches ~1,400 pages of the 100k cache's term index, so pages in one commit share most
    of them (100k users + 100k contacts, records per CPU-second: one page 3,174, ten 5,953,
    twenty 7,061). When the cache keeps up, each page is written on its own as soon as it
    comes. The cap keeps the waiting records' memory small (5,000 contacts held 50 MiB
    more)."""

    def __init__(self, syncer: Syncer, table: str, result: ResourceSummary) -> None:
        self.syncer, self.table, self.result = syncer, table, result
        self._pending: asyncio.Future[Changes] | None = None
        self._waiting: list[tuple[list[Any], SyncCheckpoint]] = []
        self._waiting_records = 0

    async def write(self, items: list[Any], point: SyncCheckpoint) -> None:
        self._waiting.append((items, point))
        self._waiting_records += len(items)
        if self._pending is not None and not self._pending.done() and self._waiting_records < RECORDS_PER_WRITE:
            return  # joins the next write
        await self._collect()
        self._start()

    def _start(self) -> None:
        if not self._waiting:
            return
        s, waiting, self._waiting, self._waiting_records = self.syncer, self._waiting, [], 0
        items = [item for page, _ in waiting for item in page]
        point = waiting[-1][1]
        self._pending = asyncio.ensure_future(
            s._run(s.store.put, self.table, items, generation=point.generation, fetched_at=s.clock(), checkpoint=point))

    async def _collect(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            try:
                changes = await pending
            except BaseException:
                self._waiting, self._waiting_records = [], 0  # their checkpoint would pass over the pages that failed
                raise
            self.result.added += changes.added
            self.result.changed += changes.changed

    async def finish(self) -> None:
        """Every page handed in is stored when this returns."""
        await self._collect()
        self._start()
        await self._collect()


def _last_updated(items: list[Any]) -> str | None:
    stamps = [item.updatedAt for item in items if getattr(item, "updatedAt", None) is not None]
    return max(stamps).isoformat().replace("+00:00", "Z") if stamps else None


__all__ = ["ALL_RESOURCES", "Changes", "ResourceSummary", "SyncSummary", "Syncer"]
