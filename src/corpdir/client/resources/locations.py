"""Locations (L1): spot information per location tag, registered in bulk."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from corpdir.client._args import entries
from corpdir.client._base import BaseClient
from corpdir.spec.location import LocationEntry, SpotsResult


class LocationsResource(BaseClient):
    """L1: spot information."""

    async def register_spots(self, locations: Sequence[LocationEntry | Mapping[str, Any]]) -> SpotsResult:
        """L1: register spot information per location tag (1 to 10,000; once per 5 minutes)."""
        return await self._call("L1", body={"locations": entries(locations)})
