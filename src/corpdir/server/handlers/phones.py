"""N1: whose numbers are these?"""

from __future__ import annotations

from corpdir.server.handlers import handles
from corpdir.server.pipeline import Call


@handles("N1")
def identify_numbers(call: Call) -> dict:
    numbers = call.fields()["phoneNums"]
    return {"items": call.storage.identify(numbers, call.caller.user_id)}
