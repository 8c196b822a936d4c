"""What every area of the facade shares: the cache and its thread, the client (built on
first use), whether the API answered lately, and the one way to ask the API and keep the
answer (:meth:`Backend.ask`).

This module is the facade's inside. The areas (people, divisions, contacts, ...) and the
other modules of :mod:`corpdir.service` use it; a front end never imports it (an
import-linter contract), so the store and the client stay out of a screen's reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Mapping, TypeVar

from corpdir.cache.aio import AsyncCache
from corpdir.client.errors import ApiError, CorpdirError, TransportError

if TYPE_CHECKING:
    from corpdir.cache.store import CacheStore
    from corpdir.client import DirectoryClient
    from corpdir.client.ratelimit import BucketSnapshot
    from corpdir.config import ServiceConfig
    from corpdir.service.directory import DirectoryService
    from corpdir.spec import Page
    from corpdir.spec.user import User
    from corpdir.spec.variants import Variant

T = TypeVar("T")
#: a record's fields as a mapping (a form's values, a change set): what the client's
#: writes take beside their pydantic models
Fields = Mapping[str, object]


class Backend:
    """The cache store, its thread, and the client of one :class:`DirectoryService`."""

    def __init__(self, client: DirectoryClient | None, store: CacheStore, settings: ServiceConfig, *,
                 clock: Callable[[], float], connect: Callable[[], DirectoryClient] | None) -> None:
        self._client = client
        self._connect = connect
        self.store = store
        self.cache = AsyncCache(store)
        self.settings = settings
        self.clock = clock
        self.online: bool | None = None  # None until the API has been asked
        self.last_error: str | None = None
        self.paths: dict[int, list[str]] = {}  # division id -> names from the top, as last read
        self._reserved_share = 0.0

    @property
    def client(self) -> DirectoryClient:
        """The API client, built when first needed: the TUI paints its first rows from the
        cache before httpx and the operation table are even imported."""
        if self._client is None:
            assert self._connect is not None
            try:
                self._client = self._connect()
            except CorpdirError as exc:  # e.g. ConfigError: a base URL or key it cannot use
                self.online, self.last_error = False, str(exc)
                raise
            if self._reserved_share:
                self._client.reserve_rate_share(self._reserved_share)
        return self._client

    def reserve_rate_share(self, share: float) -> None:
        self._reserved_share = share
        if self._client is not None:
            self._client.reserve_rate_share(share)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        self.cache.close()

    def variant(self) -> Variant:
        """The client's variant; before the client exists, the one it will be built with."""
        from corpdir.spec.variants import get_variant

        return self._client.variant if self._client is not None else get_variant(self.settings.variant)

    @property
    def provisional(self) -> bool:
        """The settings are the first screen's (:class:`corpdir.config.first.FirstService`),
        not yet checked: the first screen's reads give plain records (corpdir.cache.plain)."""
        return getattr(self.settings, "provisional", False)

    def offers(self, code: str) -> bool:
        if self._client is None:  # the variant's table alone: its value rules import pydantic
            from corpdir.spec.variant_operations import OPERATIONS

            return code in OPERATIONS[self.settings.variant]
        return self.variant().has(code)

    @property
    def rate_limit(self) -> BucketSnapshot | None:
        return self._client.rate_limit if self._client is not None else None

    # -- the API, with the online flag kept up to date ---------------------------------------
    async def api(self, call: Awaitable[T]) -> T:
        try:
            result = await call
        except TransportError as exc:
            self.online, self.last_error = False, str(exc)
            raise
        except ApiError:
            self.online = True
            raise
        self.online, self.last_error = True, None
        return result

    async def ask(self, call: Awaitable[T], keep: Callable[[T], object]) -> T:
        """The API's answer to ``call``, put into the cache by ``keep`` (on the cache's
        thread) before it is returned: the cache is a read model of what the service said,
        so the next read of it shows what this write or read brought."""
        result = await self.api(call)
        await self.cache.run(keep, result)
        return result

    async def edit(self, method: Callable[..., Awaitable[T]], rid: int, original: object, edited: object = None,
                   changes: object = None) -> T:
        """An edit as the difference between ``original`` and ``edited`` (corpdir.spec.edits),
        or as a mapping of ``changes``; either way the client gets the original record, so its
        pre-flight check knows what it edits (U4: the user's type decides which fields that
        user may have)."""
        if edited is not None:
            return await self.api(method(rid, original=original, edited=edited))
        return await self.api(method(rid, changes or {}, original=original))

    async def pages(self, code: str, query: Mapping[str, object]) -> AsyncIterator[Page[Any]]:
        """Every page of a list operation, keeping the online flag up to date."""
        try:
            async for page in self.client.iter_pages(code, dict(query)):
                self.online, self.last_error = True, None
                yield page
        except TransportError as exc:
            self.online, self.last_error = False, str(exc)
            raise

    async def items(self, code: str, query: Mapping[str, object]) -> AsyncIterator[Any]:
        """Every item of a list operation, keeping the online flag up to date."""
        async for page in self.pages(code, query):
            for item in page.items:
                yield item

    async def take(self, code: str, query: Mapping[str, object], limit: int | None = None) -> list[Any]:
        """The items of a list operation: every one, or at most ``limit`` (the first pages only)."""
        found: list[Any] = []
        async for item in self.items(code, query):
            found.append(item)
            if limit is not None and len(found) >= limit:
                break
        return found

    # -- the division paths read with users --------------------------------------------------
    def with_paths(self, users: list[User]) -> list[User]:
        """``users``, their divisions' paths read too (on the cache's thread: ~0.1 ms a page),
        so a list's cells name each division by its path without a trip to the cache."""
        ids = {d.divisionId for u in users for d in u.divisions or ()}
        if ids:
            self.paths.update(self.store.division_paths(ids))
        return users

    def keep_users(self, users: list[User]) -> None:
        """The service's answer into the cache, its divisions' paths read (cache thread)."""
        self.store.put_users(users)
        self.with_paths(users)


def given(filters: Mapping[str, object] | None) -> dict[str, object]:
    """The filters a user filled in (empty values are not sent)."""
    return {k: v for k, v in (filters or {}).items() if v not in (None, "", [])}


def backend_of(service: DirectoryService) -> Backend:
    """The backend of ``service``, for this package's modules whose work runs on the cache's
    thread in one trip (the call desk's "who is calling"); a front end asks the areas."""
    return service._backend
