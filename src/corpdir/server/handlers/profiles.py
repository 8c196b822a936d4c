"""U9-U10: profiles. Anyone may read a profile (it is directory information); editing
another user's profile needs user management, and only the owner's own edits move
selfUpdatedAt."""

from __future__ import annotations

from corpdir.server.errors import resource_denied
from corpdir.server.handlers import handles
from corpdir.server.pipeline import Call
from corpdir.server.present import present_profile


@handles("U9")
def get_profile(call: Call) -> dict:
    user_id = call.path["userId"]
    call.storage.require_user(user_id)
    return present_profile(call.storage.get_profile(user_id), call.variant)


@handles("U10")
def edit_profile(call: Call) -> dict:
    user_id = call.path["userId"]
    call.storage.require_user(user_id)
    own = user_id == call.caller.user_id
    if not own and not call.caller.manages_users:
        raise resource_denied("editing another user's profile needs user management")
    call.storage.update_profile(user_id, call.fields(), call.storage.now_iso() if own else None)
    return present_profile(call.storage.get_profile(user_id), call.variant)
