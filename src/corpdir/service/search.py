"""Search: the cache's ranked hits as the user types, and the searches of the list
screens, which add the service's answer to them (:func:`live_search`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, AsyncIterator, Mapping, Sequence, get_args

from corpdir.cache.search import Hit, Searcher
from corpdir.service.backend import given
from corpdir.service.live_search import SearchAnswer, live_search

if TYPE_CHECKING:
    from corpdir.cache.store_reads import UserOrder
    from corpdir.service.backend import Backend
    from corpdir.spec import Page
    from corpdir.spec.contact import Contact
    from corpdir.spec.user import User

SEARCH_HITS = 200  # hits the cache ranks per search
PEOPLE_HITS = 5000  # people a search lists: every match on a 10k tenant ('さとう' 741), so the count shown is true
FIRST_ROWS = 100  # records read with them (a screenful and more); the rest as they are painted


@dataclass(frozen=True)
class SearchResult:
    hit: Hit
    record: User | Contact


class Search:
    """``service.search``: the cache's search, and the list screens' searches."""

    def __init__(self, backend: Backend) -> None:
        self._b = backend
        self._searchers: dict[tuple[str, ...], Searcher] = {}

    async def records(self, query: str, *, kinds: Sequence[str] = ("user", "contact"),
                      limit: int = 100) -> list[SearchResult]:
        """As-you-type search of the cache (narrows the previous answer as the query grows)."""
        return await self._b.cache.run(self._resolve, self._searcher(kinds), query, limit)

    async def users(self, query: str, *, limit: int = 200, first: int = 100) -> tuple[list[int], list[User]]:
        """User ids ranked by the cache, and the records of the first ``first`` of them, in
        one trip to the cache's thread. A list reads the other records as it paints them
        (``service.people.by_id``): a keystroke parses what is on screen, not every hit."""

        def run() -> tuple[list[int], list[User]]:
            ids = [h.id for h in self._searcher(("user",)).search(query, limit)]
            return ids, self._b.with_paths(self._b.store.users(ids[:first]))

        return await self._b.cache.run(run)

    def _searcher(self, kinds: Sequence[str]) -> Searcher:
        return self._searchers.setdefault(tuple(kinds), Searcher(self._b.store, kinds=kinds))

    def _resolve(self, searcher: Searcher, query: str, limit: int) -> list[SearchResult]:
        store = self._b.store
        hits = searcher.search(query, limit)
        users = {u.userId: u for u in store.users([h.id for h in hits if h.kind == "user"])}
        contacts = {c.contactId: c for c in store.contacts([h.id for h in hits if h.kind == "contact"])}
        out = []
        for h in hits:
            record = users.get(h.id) if h.kind == "user" else contacts.get(h.id)
            if record is not None:
                out.append(SearchResult(h, record))
        return out

    def people(self, text: str, filters: Mapping[str, object] | None = None, *, division_id: int | None = None,
               include_sub: bool = False, order_by: UserOrder = "fullname",
               descending: bool = False) -> AsyncIterator[SearchAnswer[User]]:
        """A search of people as the user types (:func:`live_search`): the cache's ranked
        hits, then U1's answer (freeWords, the filters, the division) merged with them."""
        from corpdir.spec.constraints import max_items
        from corpdir.spec.user import UserOrderBy, UserQuery

        b = self._b
        query = given(filters)
        # U1 sorts by its own orders only; by extension (the cache's) it answers by name.
        query.update(orderBy=order_by if order_by in get_args(UserOrderBy) else "fullname",
                     orderDirection="desc" if descending else "asc")
        if division_id is not None:
            query["divisionIds"] = [division_id]
            if include_sub and b.variant().offers("includeSubDepartment"):
                query["includeSubDepartment"] = True

        async def remote(words: list[str]) -> AsyncIterator[Page[User]]:
            async for page in b.pages("U1", {**query, "freeWords": words} if words else query):
                await b.cache.run(b.keep_users, page.items)
                yield page

        return live_search(text, filtered=bool(filters), key=lambda u: u.userId,
                           local=lambda t: self.users(t, limit=PEOPLE_HITS, first=FIRST_ROWS),
                           remote=remote, max_words=max_items(UserQuery, "freeWords"))

    def contacts(self, text: str, filters: Mapping[str, object] | None = None, *, directory: str | None = None,
                 folder_num: int | None = None) -> AsyncIterator[SearchAnswer[Contact]]:
        """A search of contacts as the user types (:func:`live_search`), within a folder
        (``directory``, ``folder_num``) or all: the cache's ranked hits, then X1's answer
        (freeWords and the filters) merged with them. Without X1 the cache answers alone."""
        from corpdir.spec.constraints import max_items
        from corpdir.spec.contact import ContactQuery

        b = self._b
        scope: dict[str, object] = {}
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
            hits = await self.records(query, kinds=("contact",), limit=SEARCH_HITS)
            found = [h.record for h in hits if in_scope(h.record)]
            return [c.contactId for c in found], found

        async def remote(words: list[str]) -> AsyncIterator[Page[Contact]]:
            query = {**given(filters), **scope, "orderBy": "fullname"}
            if words:
                query["freeWords"] = words
            async for page in b.pages("X1", query):
                await b.cache.run(b.store.put_contacts, page.items)
                yield page

        return live_search(text, filtered=bool(filters), key=lambda c: c.contactId, local=local,
                           remote=remote if b.offers("X1") else None, max_words=max_items(ContactQuery, "freeWords"))
