"""H1-H6: the caller's own call histories. Incoming and outgoing share one implementation
(``CallKind`` says which table and field names), so the two stay alike."""

from __future__ import annotations

from typing import Any

from corpdir.server.errors import not_found, resource_denied
from corpdir.server.handlers import handles, page
from corpdir.server.pipeline import Call
from corpdir.server.storage import INCOMING, OUTGOING, CallKind
from corpdir.server.storage.db import iso_dt


def _show(call: Call, kind: CallKind, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the other party identified, as N1 would identify the number."""
    number = record.get(kind.number_field)
    if number:
        found = call.storage.identify_one(number, call.caller.user_id)
        found.pop("phoneNum")
        record[kind.contact_field] = found
    return record


def _fields(call: Call, kind: CallKind) -> dict[str, Any]:
    model = call.body()
    fields = model.model_dump(mode="json", exclude_unset=True)
    if kind.time_field in fields:
        fields[kind.time_field] = iso_dt(getattr(model, kind.time_field))
    return fields


def _list(call: Call, kind: CallKind) -> dict:
    items, more = call.storage.list_calls(kind, call.caller.user_id, call.query)
    return page([_show(call, kind, r) for r in items], more)


def _create(call: Call, kind: CallKind) -> dict:
    call_id = call.storage.create_call(kind, call.caller.user_id, _fields(call, kind))
    return _show(call, kind, call.storage.get_call(kind, call_id))


def _edit(call: Call, kind: CallKind) -> dict:
    call_id = call.path[kind.id_field]
    owner = call.storage.call_owner(kind, call_id)
    if owner is None:
        raise not_found(f"call record {call_id}")
    if owner != call.caller.user_id:
        raise resource_denied(f"call record {call_id} belongs to another user")
    call.storage.update_call(kind, call_id, _fields(call, kind))
    return _show(call, kind, call.storage.get_call(kind, call_id))


for code, fn, kind in (("H1", _list, INCOMING), ("H2", _create, INCOMING), ("H3", _edit, INCOMING),
                       ("H4", _list, OUTGOING), ("H5", _create, OUTGOING), ("H6", _edit, OUTGOING)):
    handles(code)(lambda call, fn=fn, kind=kind: fn(call, kind))
