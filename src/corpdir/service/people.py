"""The people of the directory (users, U1-U11, and their whereabouts, L1): read from the
cache at once, refreshed from the API into it, written through the API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from corpdir.client.errors import ApiError, TransportError
from corpdir.service.windows import CacheWindow

if TYPE_CHECKING:
    from collections.abc import Callable

    from corpdir.spec.user import User

    from corpdir.cache.store_base import Cached
    from corpdir.cache.store_reads import UserOrder
    from corpdir.service.backend import Backend, Fields
    from corpdir.service.image_cache import Images
    from corpdir.spec.location import LocationEntry, SpotsResult
    from corpdir.spec.profile import Profile, ProfileEdit
    from corpdir.spec.user import DestinationEntry, DestinationsResult, UserCreate, UserEdit


class People:
    """``service.people``: users and their profiles."""

    def __init__(self, backend: Backend, images: Images) -> None:
        self._b = backend
        self._images = images

    # -- reads -------------------------------------------------------------------------------
    async def user(self, user_id: int) -> Cached[User] | None:
        return await self._b.cache.run(self._b.store.user, user_id)

    async def refresh_user(self, user_id: int) -> User:
        return await self._b.ask(self._b.client.get_user(user_id), lambda user: self._b.store.put_users([user]))

    async def count(self, division_id: int | None, include_sub: bool = False) -> int:
        """How many people a division has (everyone for None); the division's path is read
        with the count, so a caption can name it before any row is painted."""
        return await self._b.cache.run(self._count, division_id, include_sub)

    def _count(self, division_id: int | None, include_sub: bool) -> int:
        if division_id is not None:
            self._b.paths.update(self._b.store.division_paths([division_id]))
        return self._b.store.count_users(division_id, include_sub=include_sub)

    async def window(self, division_id: int | None, *, include_sub: bool = False, order_by: UserOrder = "fullname",
                     descending: bool = False, offset: int = 0, limit: int = 100) -> list[User]:
        store = self._b.store
        return await self._b.cache.run(lambda: self._b.with_paths(store.list_users(
            division_id, include_sub=include_sub, order_by=order_by, descending=descending, offset=offset, limit=limit)))

    def of_division(self, division_id: int | None, *, include_sub: bool = False, order_by: UserOrder = "fullname",
                    descending: bool = False) -> CacheWindow[User]:
        """The people of a division (everyone for None), as windows read from the cache."""
        by_name = order_by == "fullname" and not descending
        store = self._b.store

        def first(limit: int) -> tuple[int, list[User]]:  # the count and the first rows, in one trip
            plain = self._b.provisional  # the first screen's, before the models are imported (corpdir.cache.plain)

            def read() -> tuple[int, list[User]]:
                count = self._count(division_id, include_sub)
                rows = store.list_users(division_id, include_sub=include_sub, order_by=order_by, descending=descending,
                                        limit=limit, plain=plain)
                return count, self._b.with_paths(rows)

            return self._b.cache.run_now(read)

        return CacheWindow(
            lambda: self.count(division_id, include_sub),
            lambda offset, limit: self.window(division_id, include_sub=include_sub, order_by=order_by,
                                              descending=descending, offset=offset, limit=limit),
            (lambda row: self._b.cache.run(store.users_row_offset, row, division_id, include_sub=include_sub))
            if by_name else None, first)

    async def by_id(self, ids: Sequence[int]) -> list[User]:
        """Cached users in the order of ``ids`` (ones no longer cached are left out)."""
        return await self._b.cache.run(lambda: self._b.with_paths(self._b.store.users(list(ids))))

    async def refresh_division(self, division_id: int, include_sub: bool = False) -> int:
        """U1 for a division's members, into the cache; returns how many came."""
        query: dict[str, object] = {"divisionIds": [division_id]}
        if include_sub and self._b.variant().offers("includeSubDepartment"):
            query["includeSubDepartment"] = True
        users = await self._b.ask(self._b.take("U1", query), self._b.store.put_users)
        return len(users)

    async def manages_users(self) -> bool | None:
        """Whether this key has user management, as far as the cache tells: a caller without
        it sees only a user's directory fields (http-contract.md, field range), never a
        loginId, and a loginIds filter of theirs is refused (403). The cache holds the users
        as this key read them, so a cached user with a loginId says yes, one without says
        no; None while no user is cached (the service will say)."""
        users = await self.window(None, limit=1)
        return users[0].loginId is not None if users else None

    async def profile(self, user_id: int, *, refresh: bool = True) -> Profile | None:
        """The cached profile, refreshed from U9 when ``refresh`` (falls back to the cache)."""
        b = self._b
        cached = await b.cache.run(b.store.profile, user_id)
        if not refresh or not b.offers("U9"):
            return cached.record if cached else None
        try:
            return await b.ask(b.client.get_profile(user_id), lambda profile: b.store.put_profile(user_id, profile))
        except (TransportError, ApiError):
            if cached:
                return cached.record
            raise

    # -- writes ------------------------------------------------------------------------------
    async def create(self, fields: UserCreate | Fields) -> User:
        return await self._b.ask(self._b.client.create_user(fields), lambda user: self._b.store.put_users([user]))

    async def edit(self, original: User, edited: User | Fields | None = None, *,
                   changes: UserEdit | Fields | None = None) -> User:
        b = self._b
        return await b.ask(b.edit(b.client.edit_user, original.userId, original, edited, changes),
                           lambda user: b.store.put_users([user]))

    async def delete(self, user: User) -> None:
        await self._b.ask(self._b.client.delete_user(user.userId), lambda _: self._b.store.delete_users([user.userId]))
        self._images.forget("photo", user.userId)

    async def edit_profile(self, user_id: int, original: Profile, edited: Profile | Fields | None = None, *,
                           changes: ProfileEdit | Fields | None = None) -> Profile:
        b = self._b
        return await b.ask(b.edit(b.client.edit_profile, user_id, original, edited, changes),
                           lambda profile: b.store.put_profile(user_id, profile))

    async def send_destinations(self, entries: Sequence[DestinationEntry | Fields], *, batch: int | None = None,
                                progress: Callable[[int, int], None] | None = None) -> list[DestinationsResult]:
        """U11 in requests of at most ``batch`` entries (by default the spec's limit)."""
        from corpdir.spec.user import U11_MAX_DESTINATIONS

        batch = batch or U11_MAX_DESTINATIONS
        results = []
        for start in range(0, len(entries), batch):
            results.append(await self._b.api(self._b.client.edit_destinations(list(entries[start:start + batch]))))
            if progress is not None:
                progress(min(start + batch, len(entries)), len(entries))
        return results

    async def register_spots(self, entries: Sequence[LocationEntry | Fields]) -> SpotsResult:
        """L1: once per tenant per 5 minutes (a request inside the window: RateLimited with retry_after)."""
        return await self._b.api(self._b.client.register_spots(list(entries)))
