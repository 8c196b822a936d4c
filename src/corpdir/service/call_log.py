"""The records of calls (H1-H4): the cache's at once, the newest from the API into it, and
the writes of a call's record (what :class:`corpdir.service.calls.CallDesk` records)."""

from __future__ import annotations

from typing import TYPE_CHECKING, AsyncIterator, Literal

if TYPE_CHECKING:
    from corpdir.service.backend import Backend, Fields
    from corpdir.spec.calls import IncomingCall, IncomingCallCreate, IncomingCallEdit, OutgoingCall, \
        OutgoingCallCreate, OutgoingCallEdit

Direction = Literal["incoming", "outgoing"]


class CallLog:
    """``service.calls``: incoming (H1-H3) and outgoing (H4-H6) call records."""

    def __init__(self, backend: Backend) -> None:
        self._b = backend

    async def cached(self, direction: Direction, *, answered: bool | None = None,
                     newest_first: bool = True) -> list[IncomingCall | OutgoingCall]:
        return await self._b.cache.run(self._b.store.calls, direction, answered=answered, newest_first=newest_first)

    async def refresh(self, direction: Direction, *, answered: bool | None = None, newest_first: bool = True,
                      limit: int = 200) -> list[IncomingCall | OutgoingCall]:
        query: dict[str, object] = {"orderDirection": "desc" if newest_first else "asc"}
        if answered is not None:
            query["answered"] = answered
        code = "H1" if direction == "incoming" else "H4"
        return await self._b.ask(self._b.take(code, query, limit), lambda records: self._b.store.put_calls(direction, records))

    async def incoming_newest_first(self) -> AsyncIterator[IncomingCall]:
        """H1 newest first, page by page as far as the caller reads (not into the cache):
        to find one record, stop at the first older than it."""
        async for item in self._b.items("H1", {"orderDirection": "desc"}):
            yield item

    async def create(self, direction: Direction,
                     fields: IncomingCallCreate | OutgoingCallCreate | Fields) -> IncomingCall | OutgoingCall:
        client = self._b.client
        method = client.create_incoming_call if direction == "incoming" else client.create_outgoing_call
        return await self._b.ask(method(fields), lambda record: self._b.store.put_calls(direction, [record]))

    async def edit(self, direction: Direction, original: IncomingCall | OutgoingCall,
                   edited: IncomingCall | OutgoingCall | Fields | None = None, *,
                   changes: IncomingCallEdit | OutgoingCallEdit | Fields | None = None) -> IncomingCall | OutgoingCall:
        b = self._b
        if direction == "incoming":
            method, rid = b.client.edit_incoming_call, original.incomingCallHistoryId
        else:
            method, rid = b.client.edit_outgoing_call, original.outgoingCallHistoryId
        return await b.ask(b.edit(method, rid, original, edited, changes),
                           lambda record: b.store.put_calls(direction, [record]))
