"""DirectoryService: the façade the TUI and CLI call.

Reads answer from the cache at once (``users_window``, ``search``, ``child_divisions``);
``refresh_*`` methods ask the API and put what it returns into the cache, so the next
cache read shows it. The service tracks whether the API answered lately (``online``), so
the UI can say "offline" and keep browsing the cache. Nothing here imports Textual.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence, TypeVar

from corpdir.cache.aio import AsyncCache
from corpdir.cache.search import Hit, Searcher
from corpdir.cache.store import Cached, CacheStore
from corpdir.cache.sync import Progress, Syncer, SyncSummary
from corpdir.client.errors import ApiError, CorpdirError, NotFound, TransportError
from corpdir.division_path import division_path
from corpdir.service.callerid import Answer, CallerId
from corpdir.service.live_search import SearchAnswer, live_search
from corpdir.service.windows import CacheWindow
from corpdir.spec.division import Division
from corpdir.spec.user import U11_MAX_DESTINATIONS, DivisionRef, User
from corpdir.spec.variants import get_variant

if TYPE_CHECKING:  # the first screen shows people and divisions: the other models load with their screens
    from corpdir.spec.calls import IncomingCall, OutgoingCall
    from corpdir.spec.contact import Contact
    from corpdir.spec.folder import Folder, PersonalFolder
    from corpdir.spec.profile import Profile
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceSettings

T = TypeVar("T")
PHOTO_CACHE_SIZE = 64
SEARCH_HITS = 200  # hits the cache ranks per search
PEOPLE_HITS = 5000  # people a search lists: every match on a 10k tenant ('さとう' 741), so the count shown is true
FIRST_ROWS = 100  # records read with them (a screenful and more); the rest as they are painted


@dataclass(frozen=True)
class SearchResult:
    hit: Hit
    record: User | Contact


class DirectoryService:
    def __init__(self, client: DirectoryClient | None, store: CacheStore, settings: ServiceSettings, *,
                 clock: Callable[[], float] = time.time, connect: Callable[[], DirectoryClient] | None = None) -> None:
        """``client``, or ``connect`` to build it on first use (see :attr:`client`)."""
        if client is None and connect is None:
            raise TypeError("DirectoryService needs a client or a way to connect one")
        self._client = client
        self._connect = connect
        self.store = store
        self.cache = AsyncCache(store)
        self.settings = settings
        self.clock = clock
        self.online: bool | None = None  # None until the API has been asked
        self.last_error: str | None = None
        self._images: OrderedDict[tuple[str, int, str], bytes | None] = OrderedDict()
        self._searchers: dict[tuple[str, ...], Searcher] = {}
        self._paths: dict[int, list[str]] = {}  # division id -> names from the top, as last read
        self._reserved_share = 0.0

    @classmethod
    def open(cls, settings: ServiceSettings, **client_kwargs: Any) -> DirectoryService:
        """The store for ``settings`` now, the client (embedded demo when no base URL) on first use."""

        def connect() -> DirectoryClient:
            from corpdir.service.connect import open_client

            return open_client(settings, **client_kwargs)

        store = CacheStore(settings.profile().cache_path(), region=settings.region)
        if settings.is_demo:  # a fresh install: the demo's first screen is shipped, not generated and synced
            from corpdir.cache.demo_seed import seed

            seed(store, settings.demo_size, settings.demo_seed)
        return cls(None, store, settings, connect=connect)

    @property
    def client(self) -> DirectoryClient:
        """The API client, built when first needed: the TUI paints its first rows from the
        cache before httpx and the operation table are even imported."""
        if self._client is None:
            try:
                self._client = self._connect()
            except CorpdirError as exc:  # e.g. ConfigError: a base URL or key it cannot use
                self.online, self.last_error = False, str(exc)
                raise
            if self._reserved_share:
                self._client.reserve_rate_share(self._reserved_share)
        return self._client

    def reserve_rate_share(self, share: float) -> None:
        """Keep ``share`` of the key's rate budget for what is asked inside
        :meth:`corpdir.service.phonebook.Phonebook.ask_service` (the gateway's N1 for a
        ringing phone): a sync never spends it (see corpdir.client.ratelimit)."""
        self._reserved_share = share
        if self._client is not None:
            self._client.reserve_rate_share(share)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        self.cache.close()

    # -- the API, with the online flag kept up to date ---------------------------------------
    async def _api(self, call: Awaitable[T]) -> T:
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

    @property
    def is_demo(self) -> bool:
        return self.settings.is_demo

    @property
    def variant(self) -> str:
        return self._variant().name

    def offers(self, code: str) -> bool:
        return self._variant().has(code)

    async def manages_users(self) -> bool:
        """Whether this key has user management, as far as the cache tells: a caller without
        it sees only a user's directory fields (http-contract.md, field range), never a
        loginId, and a loginIds filter of theirs is refused (403). The cache holds the users
        as this key read them, so a cached user with a loginId says yes; none read yet, no."""
        users = await self.users_window(None, limit=1)
        return bool(users) and users[0].loginId is not None

    def _variant(self) -> Any:
        """The client's variant; before the client exists, the one it will be built with."""
        return self._client.variant if self._client is not None else get_variant(self.settings.variant)

    @property
    def rate_limit(self) -> Any:
        """The client's token bucket, or None while no request has been made."""
        return self._client.rate_limit if self._client is not None else None

    def label(self) -> str:
        return "DEMO tenant (embedded)" if self.is_demo else str(self.settings.base_url)

    # -- status ----------------------------------------------------------------------------
    def synced_age(self, resource: str = "users") -> float | None:
        at = self.store.synced_at(resource)
        return None if at is None else self.clock() - at

    # -- divisions -------------------------------------------------------------------------
    async def child_divisions(self, parent_id: int | None) -> list[Division]:
        return await self.cache.run(self.store.child_divisions, parent_id)

    async def refresh_child_divisions(self, parent: Division | None) -> list[Division]:
        """D1 firstLayer for the top, else the parent's childDivisionIds (50 per request)."""
        if parent is None:
            first_layer = self._variant().offers("firstLayer")
            found = [d async for d in self._iter("D1", {"firstLayer": True} if first_layer else {})]
            if not first_layer:
                found = [d for d in found if not d.parentDivisionId]
        else:
            ids = list(parent.childDivisionIds or [])
            found = []
            for start in range(0, len(ids), 50):
                found += [d async for d in self._iter("D1", {"divisionIds": ids[start:start + 50]})]
            if not ids and not self._variant().offers("childDivisionIds"):  # the parent cannot name its children
                found = [d async for d in self._iter("D1", {}) if d.parentDivisionId == parent.divisionId]
        await self.cache.run(self.store.put_divisions, found)
        return await self.child_divisions(None if parent is None else parent.divisionId)

    async def division_paths(self, ids: Iterable[int]) -> dict[int, list[str]]:
        """Names from the top down of each cached division in ``ids``, for
        :func:`corpdir.division_path.division_path` (a division not cached is left out)."""
        paths = await self.cache.run(self.store.division_paths, list(ids))
        self._paths.update(paths)
        return paths

    def division_path(self, ref: DivisionRef, width: int | None = None, marker: str = "") -> str:
        """A user's division by its path ('本社 › 技術本部 › 品質保証部 › 1課'), within
        ``width`` cells when given, ``marker`` after it where it fits (see
        :func:`corpdir.division_path.division_path`): the path as read with the user's
        record (every read of users here reads their divisions' paths too), else the
        division's own name. For a list's cells, which are painted without a trip to the cache."""
        return division_path(self._paths.get(ref.divisionId) or [ref.divisionName or f"#{ref.divisionId}"], width,
                             marker)

    def _with_paths(self, users: list[User]) -> list[User]:
        """``users``, their divisions' paths read too (on the cache's thread: ~0.1 ms a page)."""
        ids = {d.divisionId for u in users for d in u.divisions or ()}
        if ids:
            self._paths.update(self.store.division_paths(ids))
        return users

    def _keep_users(self, users: list[User]) -> None:
        """The service's answer into the cache, its divisions' paths read (cache thread)."""
        self.store.put_users(users)
        self._with_paths(users)

    async def all_divisions(self) -> list[tuple[Division, list[str]]]:
        """Every cached division with its path (names top first), in the division tree's
        order (each under its parent; siblings by sort score, then name): what a picker offers."""
        def read() -> list[tuple[Division, list[str]]]:
            divisions = self.store.all_divisions()
            by_id = {d.divisionId: d for d in divisions}
            paths = self.store.division_paths(list(by_id))
            self._paths.update(paths)

            def place(d: Division) -> list[tuple[int, str, int]]:
                steps, seen = [], set()
                while d is not None and d.divisionId not in seen:
                    seen.add(d.divisionId)
                    steps.insert(0, (-(d.sortScore or 0), d.divisionName or "", d.divisionId))
                    d = by_id.get(d.parentDivisionId) if d.parentDivisionId else None
                return steps

            return sorted(((d, paths.get(d.divisionId) or [d.divisionName or ""]) for d in divisions),
                          key=lambda item: place(item[0]))

        return await self.cache.run(read)

    async def company_name(self) -> str:
        """The company's own name (a user's vCard ORG), "" when unknown. The API gives it
        only as N1's companyName for a user's number: asked once about a cached user's
        number and kept in the cache's meta table (a failure is not kept: asked again)."""
        known = await self.cache.run(self.store.get_meta, "company_name")
        if known is not None or not self.offers("N1"):
            return known or ""
        users = await self.users_window(None, limit=20)
        number = next((n for u in users for n in (u.extensionNum, u.phoneNum) if n), None)
        if number is None:
            return ""
        try:
            answer = await self._api(self.client.identify_numbers([number]))
        except CorpdirError:
            return ""
        name = next((i.companyName for i in answer.items if i.userId and i.companyName), None)
        if name is None:
            return ""
        await self.cache.run(self.store.set_meta, "company_name", name)
        return name

    async def member_count(self, division_id: int, include_sub: bool = False) -> int:
        return await self.cache.run(self.store.count_users, division_id, include_sub=include_sub)

    # -- users -----------------------------------------------------------------------------
    async def count_users(self, division_id: int | None, include_sub: bool = False) -> int:
        """How many people a division has (everyone for None); the division's path is read
        with the count, so a caption can name it before any row is painted."""
        def count() -> int:
            if division_id is not None:
                self._paths.update(self.store.division_paths([division_id]))
            return self.store.count_users(division_id, include_sub=include_sub)

        return await self.cache.run(count)

    async def users_window(self, division_id: int | None, *, include_sub: bool = False, order_by: str = "fullname",
                           descending: bool = False, offset: int = 0, limit: int = 100) -> list[User]:
        return await self.cache.run(lambda: self._with_paths(self.store.list_users(
            division_id, include_sub=include_sub, order_by=order_by, descending=descending, offset=offset, limit=limit)))

    def division_people(self, division_id: int | None, *, include_sub: bool = False, order_by: str = "fullname",
                        descending: bool = False) -> CacheWindow[User]:
        """The people of a division (everyone for None), as windows read from the cache."""
        by_name = order_by == "fullname" and not descending
        return CacheWindow(
            lambda: self.count_users(division_id, include_sub),
            lambda offset, limit: self.users_window(division_id, include_sub=include_sub, order_by=order_by,
                                                    descending=descending, offset=offset, limit=limit),
            (lambda row: self.cache.run(self.store.users_row_offset, row, division_id, include_sub=include_sub))
            if by_name else None)

    async def refresh_users(self, division_id: int, include_sub: bool = False) -> int:
        """U1 for a division's members, into the cache; returns how many came."""
        query: dict[str, Any] = {"divisionIds": [division_id]}
        if include_sub and self._variant().offers("includeSubDepartment"):
            query["includeSubDepartment"] = True
        users = [u async for u in self._iter("U1", query)]
        await self.cache.run(self.store.put_users, users)
        return len(users)

    async def search(self, query: str, *, kinds: Sequence[str] = ("user", "contact"), limit: int = 100) -> list[SearchResult]:
        """As-you-type search of the cache (narrows the previous answer as the query grows)."""
        return await self.cache.run(self._resolve, self._searcher(kinds), query, limit)

    async def search_users(self, query: str, *, limit: int = 200, first: int = 100) -> tuple[list[int], list[User]]:
        """User ids ranked by the cache, and the records of the first ``first`` of them, in
        one trip to the cache's thread. A list reads the other records as it paints them
        (:meth:`users_by_id`): a keystroke parses what is on screen, not every hit."""

        def run() -> tuple[list[int], list[User]]:
            ids = [h.id for h in self._searcher(("user",)).search(query, limit)]
            return ids, self._with_paths(self.store.users(ids[:first]))

        return await self.cache.run(run)

    async def users_by_id(self, ids: Sequence[int]) -> list[User]:
        """Cached users in the order of ``ids`` (ones no longer cached are left out)."""
        return await self.cache.run(lambda: self._with_paths(self.store.users(list(ids))))

    def _searcher(self, kinds: Sequence[str]) -> Searcher:
        return self._searchers.setdefault(tuple(kinds), Searcher(self.store, kinds=kinds))

    def _resolve(self, searcher: Searcher, query: str, limit: int) -> list[SearchResult]:
        hits = searcher.search(query, limit)
        users = {u.userId: u for u in self.store.users([h.id for h in hits if h.kind == "user"])}
        contacts = {c.contactId: c for c in self.store.contacts([h.id for h in hits if h.kind == "contact"])}
        out = []
        for h in hits:
            record = users.get(h.id) if h.kind == "user" else contacts.get(h.id)
            if record is not None:
                out.append(SearchResult(h, record))
        return out

    def search_people(self, text: str, filters: Mapping[str, Any] | None = None, *, division_id: int | None = None,
                      include_sub: bool = False, order_by: str = "fullname",
                      descending: bool = False) -> AsyncIterator[SearchAnswer[User]]:
        """A search of people as the user types (:func:`live_search`): the cache's ranked
        hits, then U1's answer (freeWords, the filters, the division) merged with them."""
        from corpdir.spec.constraints import max_items
        from corpdir.spec.user import UserQuery

        query = {k: v for k, v in (filters or {}).items() if v not in (None, "", [])}
        query.update(orderBy=order_by, orderDirection="desc" if descending else "asc")
        if division_id is not None:
            query["divisionIds"] = [division_id]
            if include_sub and self._variant().offers("includeSubDepartment"):
                query["includeSubDepartment"] = True

        async def remote(words: list[str]) -> AsyncIterator[Any]:
            async for page in self._pages("U1", {**query, "freeWords": words} if words else query):
                await self.cache.run(self._keep_users, page.items)
                yield page

        return live_search(text, filtered=bool(filters), key=lambda u: u.userId,
                           local=lambda t: self.search_users(t, limit=PEOPLE_HITS, first=FIRST_ROWS),
                           remote=remote, max_words=max_items(UserQuery, "freeWords"))

    async def user(self, user_id: int) -> Cached[User] | None:
        return await self.cache.run(self.store.user, user_id)

    async def refresh_user(self, user_id: int) -> User:
        user = await self._api(self.client.get_user(user_id))
        await self.cache.run(self.store.put_users, [user])
        return user

    async def profile(self, user_id: int, *, refresh: bool = True) -> Profile | None:
        """The cached profile, refreshed from U9 when ``refresh`` (falls back to the cache)."""
        cached = await self.cache.run(self.store.profile, user_id)
        if not refresh or not self.offers("U9"):
            return cached.record if cached else None
        try:
            profile = await self._api(self.client.get_profile(user_id))
        except (TransportError, ApiError):
            if cached:
                return cached.record
            raise
        await self.cache.run(self.store.put_profile, user_id, profile)
        return profile

    async def photo(self, user_id: int, size: str = "THUMBNAIL") -> bytes | None:
        """The face photo (None when the user has none); kept in a small memory cache."""
        return await self._image(("photo", user_id, size), lambda: self.client.get_photo(user_id, size), "U6")

    async def card_image(self, contact_id: int) -> bytes | None:
        return await self._image(("card", contact_id, "FULL"), lambda: self.client.get_card_image(contact_id), "X6")

    async def _image(self, key: tuple[str, int, str], fetch: Callable[[], Awaitable[bytes]], code: str) -> bytes | None:
        if key in self._images:
            self._images.move_to_end(key)
            return self._images[key]
        if not self.offers(code):
            return None
        try:
            data: bytes | None = await self._api(fetch())
        except NotFound:
            data = None
        self._images[key] = data
        while len(self._images) > PHOTO_CACHE_SIZE:
            self._images.popitem(last=False)
        return data

    def forget_image(self, kind: str, rid: int) -> None:
        for key in [k for k in self._images if k[0] == kind and k[1] == rid]:
            del self._images[key]

    # -- contacts and folders ----------------------------------------------------------------
    async def folders(self) -> list[Folder]:
        return await self.cache.run(self.store.folders)

    async def refresh_folders(self) -> list[Folder]:
        if self.offers("F1"):
            folders = [f async for f in self._iter("F1", {})]
            await self.cache.run(self.store.put_folders, folders)
        if self.offers("P1"):
            personal = [f async for f in self._iter("P1", {})]
            await self.cache.run(self.store.put_personal_folders, personal)
        return await self.folders()

    async def folder_names(self) -> dict[tuple[str, int], str]:
        """Each folder's name by (directory, folderNum), as the cache knows them."""
        names = {(f.folderId.directory, f.folderId.folderNum): f.folderName for f in await self.folders()
                 if f.folderId is not None and f.folderName}
        names.update({("PERSONAL", f.folderNum): f.folderName for f in await self.personal_folders() if f.folderName})
        return names

    async def personal_folders(self) -> list[PersonalFolder]:
        return await self.cache.run(self.store.personal_folders)

    async def count_contacts(self, directory: str | None = None, folder_num: int | None = None) -> int:
        return await self.cache.run(self.store.count_contacts, directory, folder_num)

    async def contacts_window(self, directory: str | None = None, folder_num: int | None = None, *, offset: int = 0,
                              limit: int = 100) -> list[Contact]:
        return await self.cache.run(self.store.list_contacts, directory, folder_num, offset=offset, limit=limit)

    def search_contacts(self, text: str, filters: Mapping[str, Any] | None = None, *, directory: str | None = None,
                        folder_num: int | None = None) -> AsyncIterator[SearchAnswer[Contact]]:
        """A search of contacts as the user types (:func:`live_search`), within a folder
        (``directory``, ``folder_num``) or all: the cache's ranked hits, then X1's answer
        (freeWords and the filters) merged with them. Without X1 the cache answers alone."""
        from corpdir.spec.constraints import max_items
        from corpdir.spec.contact import ContactQuery

        scope: dict[str, Any] = {}
        if directory:
            scope["directory"] = directory
        if folder_num is not None:
            scope["folderNums"] = [folder_num]

        def in_scope(contact: Contact) -> bool:
            folder = contact.folderId
            if directory and (folder is None or folder.directory != directory):
                return False
            return folder_num is None or (folder is not None and folder.folderNum == folder_num)

        async def local(query: str) -> tuple[list[int], list[Contact]]:
            found = [h.record for h in await self.search(query, kinds=("contact",), limit=SEARCH_HITS) if in_scope(h.record)]
            return [c.contactId for c in found], found

        async def remote(words: list[str]) -> AsyncIterator[Any]:
            query = {**{k: v for k, v in (filters or {}).items() if v not in (None, "", [])}, **scope,
                     "orderBy": "fullname"}
            if words:
                query["freeWords"] = words
            async for page in self._pages("X1", query):
                await self.cache.run(self.store.put_contacts, page.items)
                yield page

        return live_search(text, filtered=bool(filters), key=lambda c: c.contactId, local=local,
                           remote=remote if self.offers("X1") else None, max_words=max_items(ContactQuery, "freeWords"))

    async def contacts_by_id(self, ids: Sequence[int]) -> list[Contact]:
        """Cached contacts in the order of ``ids`` (ones no longer cached are left out)."""
        return await self.cache.run(self.store.contacts, list(ids))

    def folder_contacts(self, directory: str | None = None, folder_num: int | None = None) -> CacheWindow[Contact]:
        """The contacts of a folder (of a directory, or all), as windows read from the cache."""
        return CacheWindow(lambda: self.count_contacts(directory, folder_num),
                           lambda offset, limit: self.contacts_window(directory, folder_num, offset=offset, limit=limit),
                           lambda row: self.cache.run(self.store.contacts_row_offset, row, directory, folder_num))

    async def list_contacts_remote(self, *, limit: int = 500, **filters: Any) -> list[Contact]:
        """X1 with its filters (fullname, companyName, phoneNum, email, updatedFrom/To,
        directory, folderNums, ocr*, identified ...); the answer refreshes the cache."""
        query = {k: v for k, v in filters.items() if v not in (None, "", [])}
        contacts = await self._take("X1", query, limit)
        await self.cache.run(self.store.put_contacts, contacts)
        return contacts

    async def contact(self, contact_id: int) -> Cached[Contact] | None:
        return await self.cache.run(self.store.contact, contact_id)

    # -- calls -------------------------------------------------------------------------------
    async def calls(self, direction: str, *, answered: bool | None = None, newest_first: bool = True) -> list[IncomingCall | OutgoingCall]:
        return await self.cache.run(self.store.calls, direction, answered=answered, newest_first=newest_first)

    async def refresh_calls(self, direction: str, *, answered: bool | None = None, newest_first: bool = True, limit: int = 200) -> list[IncomingCall | OutgoingCall]:
        code = "H1" if direction == "incoming" else "H4"
        query: dict[str, Any] = {"orderDirection": "desc" if newest_first else "asc"}
        if answered is not None:
            query["answered"] = answered
        records = await self._take(code, query, limit)
        await self.cache.run(self.store.put_calls, direction, records)
        return records

    # -- writes ----------------------------------------------------------------------------
    # Each write goes to the API; the record it returns replaces the cache row (the cache is
    # a read model), a delete removes the rows. Edits take (original, edited) and send the
    # difference only (corpdir.spec.edits), or a mapping of changes; either way the client
    # gets the original record, so its pre-flight check knows what it edits (U4: the
    # user's type decides which fields that user may have).
    async def _edit(self, method: Callable[..., Awaitable[T]], rid: int, original: Any, edited: Any = None,
                    changes: Any = None) -> T:
        if edited is not None:
            return await self._api(method(rid, original=original, edited=edited))
        return await self._api(method(rid, changes or {}, original=original))

    async def create_user(self, fields: Any) -> User:
        user = await self._api(self.client.create_user(fields))
        await self.cache.run(self.store.put_users, [user])
        return user

    async def edit_user(self, original: User, edited: Any = None, *, changes: Any = None) -> User:
        user = await self._edit(self.client.edit_user, original.userId, original, edited, changes)
        await self.cache.run(self.store.put_users, [user])
        return user

    async def delete_user(self, user: User) -> None:
        await self._api(self.client.delete_user(user.userId))
        await self.cache.run(self.store.delete_users, [user.userId])
        self.forget_image("photo", user.userId)

    async def replace_photo(self, user_id: int, jpeg: bytes) -> None:
        await self._api(self.client.put_photo(user_id, jpeg))
        self.forget_image("photo", user_id)

    async def delete_photo(self, user_id: int) -> None:
        await self._api(self.client.delete_photo(user_id))
        self.forget_image("photo", user_id)

    async def edit_profile(self, user_id: int, original: Profile, edited: Any = None, *, changes: Any = None) -> Profile:
        profile = await self._edit(self.client.edit_profile, user_id, original, edited, changes)
        await self.cache.run(self.store.put_profile, user_id, profile)
        return profile

    async def send_destinations(self, entries: Sequence[Any], *, batch: int = U11_MAX_DESTINATIONS,
                                progress: Callable[[int, int], None] | None = None) -> list[Any]:
        """U11 in requests of at most ``batch`` entries (by default the spec's limit)."""
        results = []
        for start in range(0, len(entries), batch):
            results.append(await self._api(self.client.edit_destinations(list(entries[start:start + batch]))))
            if progress is not None:
                progress(min(start + batch, len(entries)), len(entries))
        return results

    async def register_spots(self, entries: Sequence[Any]) -> Any:
        """L1: once per tenant per 5 minutes (a request inside the window: RateLimited with retry_after)."""
        return await self._api(self.client.register_spots(list(entries)))

    async def _reread_division(self, division_id: int | None) -> None:
        """A parent's childDivisionIds change with its children: read it again (D3)."""
        if division_id:
            try:
                parent = await self._api(self.client.get_division(division_id))
            except ApiError:
                return
            await self.cache.run(self.store.put_divisions, [parent])

    async def create_division(self, fields: Any) -> Division:
        division = await self._api(self.client.create_division(fields))
        await self.cache.run(self.store.put_divisions, [division])
        await self._reread_division(division.parentDivisionId)
        return division

    async def edit_division(self, original: Division, edited: Any = None, *, changes: Any = None) -> Division:
        division = await self._edit(self.client.edit_division, original.divisionId, original, edited, changes)
        await self.cache.run(self.store.put_divisions, [division])
        if division.parentDivisionId != original.parentDivisionId:
            await self._reread_division(original.parentDivisionId)
            await self._reread_division(division.parentDivisionId)
        return division

    async def division_subtree(self, division_id: int) -> list[int]:
        """The division and every division below it, as far as the cache knows."""
        return await self.cache.run(self.store.subtree_ids, division_id)

    async def delete_division(self, division: Division) -> int:
        """D5 deletes the division and its descendants; returns how many left the cache."""
        ids = await self.division_subtree(division.divisionId)
        await self._api(self.client.delete_division(division.divisionId))
        await self.cache.run(self.store.delete_divisions, ids)
        await self._reread_division(division.parentDivisionId)
        return len(ids)

    async def create_contact(self, fields: Any) -> Contact:
        contact = await self._api(self.client.create_contact(fields))
        await self.cache.run(self.store.put_contacts, [contact])
        return contact

    async def edit_contact(self, original: Contact, edited: Any = None, *, changes: Any = None) -> Contact:
        contact = await self._edit(self.client.edit_contact, original.contactId, original, edited, changes)
        await self.cache.run(self.store.put_contacts, [contact])
        return contact

    async def delete_contact(self, contact: Contact) -> None:
        await self._api(self.client.delete_contact(contact.contactId))
        await self.cache.run(self.store.delete_contacts, [contact.contactId])
        self.forget_image("card", contact.contactId)

    async def create_contact_from_card(self, jpeg: bytes, form: Any) -> int:
        """X5: the contact is made by the service (text recognition); returns its id."""
        created = await self._api(self.client.create_contact_from_card(jpeg, form))
        return created.contactId

    async def replace_card_image(self, contact_id: int, jpeg: bytes) -> None:
        await self._api(self.client.put_card_image(contact_id, jpeg))
        self.forget_image("card", contact_id)

    async def delete_card_image(self, contact_id: int) -> None:
        await self._api(self.client.delete_card_image(contact_id))
        self.forget_image("card", contact_id)

    async def _folders_changed(self, folder: PersonalFolder) -> PersonalFolder:
        await self.cache.run(self.store.put_personal_folders, [folder])
        if self.offers("F1"):
            try:
                folders = [f async for f in self._iter("F1", {})]
            except ApiError:
                return folder
            await self.cache.run(self.store.put_folders, folders)
        return folder

    async def create_personal_folder(self, fields: Any) -> PersonalFolder:
        return await self._folders_changed(await self._api(self.client.create_personal_folder(fields)))

    async def edit_personal_folder(self, original: PersonalFolder, edited: Any = None, *, changes: Any = None) -> PersonalFolder:
        folder = await self._edit(self.client.edit_personal_folder, original.folderNum, original, edited, changes)
        return await self._folders_changed(folder)

    async def create_call(self, direction: str, fields: Any) -> IncomingCall | OutgoingCall:
        method = self.client.create_incoming_call if direction == "incoming" else self.client.create_outgoing_call
        record = await self._api(method(fields))
        await self.cache.run(self.store.put_calls, direction, [record])
        return record

    async def edit_call(self, direction: str, original: IncomingCall | OutgoingCall, edited: Any = None, *,
                        changes: Any = None) -> IncomingCall | OutgoingCall:
        if direction == "incoming":
            record = await self._edit(self.client.edit_incoming_call, original.incomingCallHistoryId, original, edited, changes)
        else:
            record = await self._edit(self.client.edit_outgoing_call, original.outgoingCallHistoryId, original, edited, changes)
        await self.cache.run(self.store.put_calls, direction, [record])
        return record

    # -- caller-ID and sync -----------------------------------------------------------------
    async def identify_cached(self, numbers: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """Who has each number, from the cache's phone index only (no request): for call rows
        whose record names no one. One trip to the cache's thread for all the numbers."""
        wanted = list(dict.fromkeys(n for n in numbers if n))

        def identify_all() -> dict[str, list[dict[str, Any]]]:
            return {n: self.store.identify(n) for n in wanted}

        return await self.cache.run(identify_all) if wanted else {}

    async def lookup(self, numbers: Iterable[str]) -> list[Answer]:
        async def identify(batch: list[str]) -> list[dict[str, Any]]:
            result = await self._api(self.client.identify_numbers(batch))
            items = [i.model_dump(mode="json") for i in result.items]
            return await self.cache.run(lambda: [self.store.complete_identification(i) for i in items])

        caller = CallerId(self.store.identify, identify if self.offers("N1") else None,
                          cache_age=await self.cache.run(self.synced_age, "users"),
                          region=self.settings.region, stale_after=self.settings.stale_after)
        return await caller.lookup(list(numbers), run=self.cache.run)

    async def sync(self, *, full: bool = False, progress: Progress | None = None) -> SyncSummary:
        syncer = Syncer(self.store, self._page, self.client.iter_pages, progress=progress, clock=self.clock,
                        available=self.offers, run=self.cache.run)
        return await self._api(syncer.run(full=full))

    async def _page(self, code: str, params: dict[str, Any]) -> Any:
        from corpdir.spec import OPERATIONS

        return await getattr(self.client, OPERATIONS[code].name)(params)

    async def _pages(self, code: str, query: dict[str, Any]) -> Any:
        """Every page of a list operation, keeping the online flag up to date."""
        try:
            async for page in self.client.iter_pages(code, query):
                self.online, self.last_error = True, None
                yield page
        except TransportError as exc:
            self.online, self.last_error = False, str(exc)
            raise

    async def _iter(self, code: str, query: dict[str, Any]) -> Any:
        """Every item of a list operation, keeping the online flag up to date."""
        async for page in self._pages(code, query):
            for item in page.items:
                yield item

    async def _take(self, code: str, query: dict[str, Any], limit: int) -> list[Any]:
        """At most ``limit`` items of a list operation (the first pages only)."""
        items: list[Any] = []
        async for item in self._iter(code, query):
            items.append(item)
            if len(items) >= limit:
                break
        return items
