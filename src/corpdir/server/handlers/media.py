"""U6-U8 face photos and X6-X8 business-card images."""

from __future__ import annotations

from corpdir.server.errors import invalid, not_found
from corpdir.server.handlers import handles
from corpdir.server.handlers.contacts import require_contact
from corpdir.server.images import thumbnail
from corpdir.server.pipeline import Call
from corpdir.spec.enums import PhotoSize


@handles("U6")
def get_photo(call: Call) -> bytes:
    size = call.params.get("size", PhotoSize.FULL.value)
    if size not in PhotoSize.__members__:
        raise invalid("size", "INVALID_ENUM", "must be FULL or THUMBNAIL")
    user_id = call.path["userId"]
    call.storage.require_user(user_id)
    photo = call.storage.get_photo(user_id, size)
    if photo is None:
        raise not_found(f"a photo of user {user_id}")
    return photo


@handles("U7")
def put_photo(call: Call) -> None:
    assert call.upload is not None
    call.storage.put_photo(call.path["userId"], call.upload, thumbnail(call.upload))


@handles("U8")
def delete_photo(call: Call) -> None:
    user_id = call.path["userId"]
    call.storage.require_user(user_id)
    if not call.storage.delete_photo(user_id):
        raise not_found(f"a photo of user {user_id}")


@handles("X6")
def get_card(call: Call) -> bytes:
    contact_id = require_contact(call, edit=False)
    image = call.storage.get_card(contact_id)
    if image is None:
        raise not_found(f"a card image of contact {contact_id}")
    return image


@handles("X7")
def put_card(call: Call) -> None:
    assert call.upload is not None
    call.storage.put_card(require_contact(call, edit=True), call.upload)


@handles("X8")
def delete_card(call: Call) -> None:
    contact_id = require_contact(call, edit=True)
    if not call.storage.delete_card(contact_id):
        raise not_found(f"a card image of contact {contact_id}")
