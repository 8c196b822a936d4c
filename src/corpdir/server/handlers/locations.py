"""L1: spot registration, one accepted request per tenant per 5 minutes.

A request inside the 5-minute window is "above the limit" of spec section 8: 429
RESOURCE_EXHAUSTED with ``Retry-After`` = the seconds left in the window
(http-contract.md); it is not counted, and nothing is stored.
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
    accepted, wait = call.storage.register_spots(entries, now, window=call.settings.rate_limit.spots_window)
    if wait > 0:
        seconds = math.ceil(wait)
        raise ApiError(ErrorStatus.RESOURCE_EXHAUSTED,
                       f"spot information was registered less than 5 minutes ago; the next registration is allowed in {seconds} s",
                       headers={"retry-after": str(seconds)})
    return {"locationsCount": len(entries), "acceptedCount": accepted}
