"""Divisions (D1-D5): the company's tree of departments."""

from __future__ import annotations

from typing import Any, AsyncIterator, Mapping

from corpdir.client._args import merge
from corpdir.client._base import BaseClient
from corpdir.spec import Page
from corpdir.spec.division import Division, DivisionCreate, DivisionEdit, DivisionQuery


class DivisionsResource(BaseClient):
    """D1-D5: divisions."""

    async def list_divisions(self, query: DivisionQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[Division]:
        """D1: one page of divisions."""
        return await self._call("D1", query=merge(query, params))

    async def create_division(self, division: DivisionCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> Division:
        """D2: create a division (divisionCode and divisionName required)."""
        return await self._call("D2", body=merge(division, fields))

    async def get_division(self, division_id: int) -> Division:
        """D3: one division."""
        return await self._call("D3", path={"divisionId": division_id})

    async def edit_division(
        self,
        division_id: int,
        changes: DivisionEdit | Mapping[str, Any] | None = None,
        *,
        original: Division | Mapping[str, Any] | None = None,
        edited: Division | Mapping[str, Any] | None = None,
    ) -> Division:
        """D4: change division fields (parentDivisionId 0 moves it to the top level)."""
        return await self._edit("D4", {"divisionId": division_id}, changes, original, edited)

    async def delete_division(self, division_id: int) -> None:
        """D5: delete a division and every division below it."""
        await self._call("D5", path={"divisionId": division_id})

    def iter_divisions(self, query: DivisionQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[Division]:
        """Every division matching ``query`` (D1)."""
        return self.paginate("D1", query, **params)
