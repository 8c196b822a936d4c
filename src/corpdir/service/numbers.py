"""``service.identification``: whose numbers these are, for the facade's front ends, and
what it asks the service (N1, "who has these numbers?") to tell.

The answer itself is made in :mod:`corpdir.service.identify` (one rule for every
surface); this area runs it on the cache's thread and completes it with the service: a
person N1 names is fetched (U3; the divisions, D1, when the cache lacks one of theirs)
and kept in the cache, and the answer is read from the cache again, so it is named as the
cache would have named them, with the division by its path. A division's own number N1
names (it says only the division's name) is read the same way once the divisions are in
the cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from corpdir.client.errors import CorpdirError
from corpdir.service.identify import Identifier, Identity, from_item, matching, read_number

if TYPE_CHECKING:
    from corpdir.service.backend import Backend
    from corpdir.service.divisions import Divisions
    from corpdir.service.people import People
    from corpdir.service.sync import Sync
    from corpdir.spec.identify import IdentifyResult


class Identification:
    """``service.identification``: the one answer from the cache, then N1; and the company's
    name N1 tells."""

    def __init__(self, backend: Backend, people: People, divisions: Divisions, sync: Sync) -> None:
        self._b = backend
        self._people = people
        self._divisions = divisions
        self._sync = sync

    @property
    def region(self) -> str:
        return self._b.settings.region

    def identifier(self, fresh: bool) -> Identifier:
        return Identifier(self._b.store.holders, fresh=fresh, region=self.region)

    async def cached(self, queries: Iterable[str]) -> list[Identity]:
        """From the cache only (no request), in one trip to the cache's thread."""
        return await self._b.cache.run(self.identifier(True).cached, list(queries))

    async def lookup(self, queries: Iterable[str]) -> list[Identity]:
        """The cache's answers; N1 for what it does not know (every number when it is stale)."""
        age = await self._sync.age("users")
        identifier = self.identifier(age is not None and age <= self._b.settings.stale_after)
        answers = await self._b.cache.run(identifier.cached, list(queries))
        if self._b.offers("N1") and (ask := identifier.to_ask(answers)):
            asked = dict(zip(map(id, ask), await identifier.ask_service(ask, self.resolve)))
            answers = [asked.get(id(a), a) for a in answers]
        return answers

    async def identify_numbers(self, numbers: Sequence[str]) -> IdentifyResult:
        """N1 for ``numbers`` (the answer is not kept: the caller decides what of it to keep)."""
        return await self._b.api(self._b.client.identify_numbers(list(numbers)))

    async def resolve(self, numbers: list[str]) -> list[Identity | None]:
        """N1 for up to five numbers, each answer completed through the cache (None: nobody)."""
        result = await self.identify_numbers(numbers)
        items = [i.model_dump(mode="json") for i in result.items]
        out: list[Identity | None] = []
        done: dict[tuple[object, ...], Identity] = {}  # two spellings of one number name one holder: completed once
        for number in numbers:
            item = matching(items, number, self.region)
            if item is None:
                out.append(None)
                continue
            holder = (item.get("phoneNumContactType"), item.get("userId"), item.get("contactId"), item.get("displayName"))
            if holder not in done:
                done[holder] = await self._complete(number, item)
            out.append(done[holder])
        return out

    async def _complete(self, number: str, item: dict[str, Any]) -> Identity:
        kind = item.get("phoneNumContactType")
        if kind == "USER" and not _names(await self._read(number), item):
            user = await self._people.refresh_user(item["userId"])  # U3, kept in the cache
            wanted = [d.divisionId for d in user.divisions or ()]
            if len(await self._divisions.paths(wanted)) < len(set(wanted)):
                await self._fetch_divisions()
        elif kind == "SHARED_NUMBER" and item.get("divisionNames") and not (await self._read(number)).found:
            await self._fetch_divisions()  # perhaps a division's own number: the cache then knows it, by path
        again = await self._read(number)
        if _names(again, item):
            again.source = "service"
            return again
        return from_item(number, item)

    async def _read(self, number: str) -> Identity:
        return await self._b.cache.run(read_number, number, self._b.store.holders, self.region)

    async def _fetch_divisions(self) -> None:
        divisions = [d async for d in self._b.client.iter_divisions()]
        await self._b.cache.run(self._b.store.put_divisions, divisions)

    async def company_name(self) -> str:
        """The company's own name (a user's vCard ORG), "" when unknown. The API gives it
        only as N1's companyName for a user's number: asked once about a cached user's
        number and kept in the cache's meta table (a failure is not kept: asked again)."""
        b = self._b
        known = await b.cache.run(b.store.get_meta, "company_name")
        if known is not None or not b.offers("N1"):
            return known or ""
        users = await self._people.window(None, limit=20)
        number = next((n for u in users for n in (u.extensionNum, u.phoneNum) if n), None)
        if number is None:
            return ""
        try:
            answer = await self.identify_numbers([number])
        except CorpdirError:
            return ""
        name = next((i.companyName for i in answer.items if i.userId and i.companyName), None)
        if name is None:
            return ""
        await b.cache.run(b.store.set_meta, "company_name", name)
        return name


def _names(identity: Identity, item: dict[str, Any]) -> bool:
    """The cache's answer names whom N1's item names."""
    kind = item.get("phoneNumContactType")
    if kind == "USER":
        return identity.kind == "person" and identity.id == item.get("userId")
    if kind == "CONTACT":
        return identity.kind == "contact" and identity.id == item.get("contactId")
    return identity.kind in ("division", "company")
