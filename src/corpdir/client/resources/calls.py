"""Call histories (H1-H6): the caller's own records of incoming and outgoing calls."""

from __future__ import annotations

from typing import Any, AsyncIterator, Mapping

from corpdir.client._args import merge
from corpdir.client._base import BaseClient
from corpdir.spec import Page
from corpdir.spec.calls import (
    CallQuery,
    IncomingCall,
    IncomingCallCreate,
    IncomingCallEdit,
    OutgoingCall,
    OutgoingCallCreate,
    OutgoingCallEdit,
)


class CallsResource(BaseClient):
    """H1-H6: incoming and outgoing call records."""

    async def list_incoming_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[IncomingCall]:
        """H1: one page of the caller's incoming calls (pageSize up to 20)."""
        return await self._call("H1", query=merge(query, params))

    async def create_incoming_call(self, call: IncomingCallCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> IncomingCall:
        """H2: add an incoming call record (answered and calledAt required)."""
        return await self._call("H2", body=merge(call, fields))

    async def edit_incoming_call(
        self,
        history_id: int,
        changes: IncomingCallEdit | Mapping[str, Any] | None = None,
        *,
        original: IncomingCall | Mapping[str, Any] | None = None,
        edited: IncomingCall | Mapping[str, Any] | None = None,
    ) -> IncomingCall:
        """H3: change an incoming call record."""
        return await self._edit("H3", {"incomingCallHistoryId": history_id}, changes, original, edited)

    async def list_outgoing_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[OutgoingCall]:
        """H4: one page of the caller's outgoing calls (pageSize up to 20)."""
        return await self._call("H4", query=merge(query, params))

    async def create_outgoing_call(self, call: OutgoingCallCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> OutgoingCall:
        """H5: add an outgoing call record (toNum, answered and callingAt required)."""
        return await self._call("H5", body=merge(call, fields))

    async def edit_outgoing_call(
        self,
        history_id: int,
        changes: OutgoingCallEdit | Mapping[str, Any] | None = None,
        *,
        original: OutgoingCall | Mapping[str, Any] | None = None,
        edited: OutgoingCall | Mapping[str, Any] | None = None,
    ) -> OutgoingCall:
        """H6: change an outgoing call record."""
        return await self._edit("H6", {"outgoingCallHistoryId": history_id}, changes, original, edited)

    def iter_incoming_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[IncomingCall]:
        """Every incoming call record (H1)."""
        return self.paginate("H1", query, **params)

    def iter_outgoing_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[OutgoingCall]:
        """Every outgoing call record (H4)."""
        return self.paginate("H4", query, **params)
