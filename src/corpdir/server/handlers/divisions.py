"""D1-D5: the division tree."""

from __future__ import annotations

from corpdir.server.handlers import handles, page
from corpdir.server.pipeline import Call
from corpdir.server.present import present_division


def _show(call: Call, division_id: int) -> dict:
    return present_division(call.storage.require_division(division_id), call.variant)


@handles("D1")
def list_divisions(call: Call) -> dict:
    ids, more = call.storage.list_division_ids(call.query)
    return page([present_division(d, call.variant) for d in call.storage.get_divisions(ids)], more)


@handles("D2")
def create_division(call: Call) -> dict:
    return _show(call, call.storage.create_division(call.fields()))


@handles("D3")
def get_division(call: Call) -> dict:
    return _show(call, call.path["divisionId"])


@handles("D4")
def edit_division(call: Call) -> dict:
    division_id = call.path["divisionId"]
    call.storage.require_division(division_id)
    call.storage.update_division(division_id, call.fields())
    return _show(call, division_id)


@handles("D5")
def delete_division(call: Call) -> None:
    call.storage.delete_division(call.path["divisionId"])
