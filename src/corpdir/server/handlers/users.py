"""U1-U5 and U11: users and bulk destinations."""

from __future__ import annotations

from typing import Any

from corpdir.server.errors import ApiError
from corpdir.server.handlers import handles, page
from corpdir.server.pipeline import Call
from corpdir.server.present import present_user
from corpdir.spec.errors import ErrorStatus


def show(call: Call, record: dict[str, Any], select: list[str] | None = None) -> dict[str, Any]:
    return present_user(record, manager=call.caller.manages_users, variant=call.variant,
                        public_url=call.settings.public_url, select=select)


@handles("U1")
def list_users(call: Call) -> dict:
    q = call.query
    if "loginIds" in q.model_fields_set and not call.caller.manages_users:
        # loginId is outside their field range: answering would tell them which ids exist
        raise ApiError(ErrorStatus.RESOURCE_PERMISSION_DENIED,
                       "the loginIds filter needs user management (login ids are outside your field range)")
    ids, more = call.storage.list_user_ids(q)
    select = q.select if "select" in q.model_fields_set else None
    return page([show(call, u, select) for u in call.storage.get_users(ids)], more)


@handles("U2")
def create_user(call: Call) -> dict:
    user_id = call.storage.create_user(call.fields())
    return show(call, call.storage.require_user(user_id))


@handles("U3")
def get_user(call: Call) -> dict:
    return show(call, call.storage.require_user(call.path["userId"]))


@handles("U4")
def edit_user(call: Call) -> dict:
    user_id = call.path["userId"]
    user = call.storage.require_user(user_id)
    call.storage.update_user(user_id, call.fields({"user_type": user.get("userType")}))
    return show(call, call.storage.require_user(user_id))


@handles("U5")
def delete_user(call: Call) -> None:
    call.storage.delete_user(call.path["userId"])


@handles("U11")
def edit_destinations(call: Call) -> dict:
    entries = call.fields()["destinations"]
    registered = call.storage.set_destinations(entries, call.storage.now_iso())
    return {"destinationsCount": len(entries), "registeredCount": registered}
