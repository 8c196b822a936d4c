"""L1: spot registration, one accepted request per tenant per 5 minutes.

A request inside the 5-minute window answers 409 CONFLICT (it conflicts with the
tenant's state, not with the caller's request rate) with ``Retry-After``; it is not
counted, and nothing is stored.
"""

from __future__ import annotations

import math

from corpdir.server.errors import ApiError
from corpdir.server.handlers import handles
from corpdir.server.pipeline import Call
from corpdir.spec.errors import ErrorStatus


@handles("L1")
def register_spots(call: Call) -> dict:
    entries = call.fields()["locations"]
    now = call.now()
    accepted, wait = call.storage.register_spots(entries, now)
    if wait > 0:
        raise ApiError(ErrorStatus.CONFLICT, "spot information was registered less than 5 minutes ago",
                       headers={"retry-after": str(math.ceil(wait))})
    return {"locationsCount": len(entries), "acceptedCount": accepted}
