"""Identification's requests to the service (N1, "who has these numbers?"): what the
facade's lookup, the gateway's phonebook and a vCard's company name ask it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from corpdir.client.errors import CorpdirError

if TYPE_CHECKING:
    from corpdir.service.backend import Backend
    from corpdir.service.people import People
    from corpdir.spec.identify import IdentifyResult


class Identification:
    """``service.identification``: N1, and the company's name it tells."""

    def __init__(self, backend: Backend, people: People) -> None:
        self._b = backend
        self._people = people

    async def identify_numbers(self, numbers: Sequence[str]) -> IdentifyResult:
        """N1 for ``numbers`` (the answer is not kept: the caller decides what of it to keep)."""
        return await self._b.api(self._b.client.identify_numbers(list(numbers)))

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
