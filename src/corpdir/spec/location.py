"""Bulk spot registration per location tag (L1, spec 2.11 and 8)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Strict

from corpdir.spec import constraints as c
from corpdir.spec.common import RequestModel, ResponseModel

L1_MAX_LOCATIONS = 10_000
L1_ACCEPT_INTERVAL_SECONDS = 5 * 60  # one accepted request per tenant per 5 minutes
L1_SPOT_TTL_SECONDS = 10 * 60  # accepted spots expire after 10 minutes


class LocationEntry(RequestModel):
    bleId: Annotated[str, Strict(), c.varies("bleId")]
    spotId: c.text(256)


class SpotsRequest(RequestModel):
    locations: c.items(LocationEntry, L1_MAX_LOCATIONS, min_items=1)


class SpotsResult(ResponseModel):
    locationsCount: int
    acceptedCount: int
