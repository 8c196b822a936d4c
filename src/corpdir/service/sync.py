"""Sync: the cache brought up to date with the service (:class:`corpdir.cache.sync.Syncer`),
and how long ago that was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from corpdir.cache.sync import Progress, Syncer, SyncSummary

if TYPE_CHECKING:
    from corpdir.service.backend import Backend
    from corpdir.spec import Page


class Sync:
    """``service.sync``: run a sync, and tell the age of the last one."""

    def __init__(self, backend: Backend) -> None:
        self._b = backend

    async def run(self, *, full: bool = False, progress: Progress | None = None) -> SyncSummary:
        b = self._b
        syncer = Syncer(b.store, self._page, b.client.iter_pages, progress=progress, clock=b.clock,
                        available=b.offers, run=b.cache.run)
        return await b.api(syncer.run(full=full))

    async def _page(self, code: str, params: dict[str, object]) -> Page[object]:
        from corpdir.spec import OPERATIONS

        return await getattr(self._b.client, OPERATIONS[code].name)(params)

    async def age(self, resource: str = "users") -> float | None:
        """Seconds since ``resource`` was last synced (None: never), read on the cache's thread."""
        b = self._b

        def age() -> float | None:
            at = b.store.synced_at(resource)
            return None if at is None else b.clock() - at

        return await b.cache.run(age)
