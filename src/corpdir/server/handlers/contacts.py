"""X1-X5: external contacts. Visible: shared folders and the caller's own personal ones;
editable: shared folders for shared-folder editors, personal folders for their owner."""

from __future__ import annotations

from typing import Any

from corpdir.server.errors import not_found, resource_denied, unprocessable
from corpdir.server.handlers import handles, page
from corpdir.server.pipeline import Call
from corpdir.server.present import contacts_json, present_contact
from corpdir.spec.contact import ContactFields
from pydantic import ValidationError
from starlette.responses import Response

_OCR_TYPE = {"AUTO": "MACHINE", "OPERATOR": "OPERATOR"}


def require_contact(call: Call, *, edit: bool) -> int:
    """The path's contact id, after checking it exists and is in the caller's range."""
    contact_id = call.path["contactId"]
    row = call.storage.get_contact_row(contact_id)
    if row is None:
        raise not_found(f"contact {contact_id}")
    allowed = call.caller.may_edit_folder if edit else call.caller.may_view_folder
    if not allowed(row["directory"], row["owner_id"]):
        raise resource_denied(f"contact {contact_id} is in a folder you may not {'edit' if edit else 'view'}")
    return contact_id


def require_editable_folder(call: Call, directory: str, folder_num: int) -> int | None:
    """The folder's owner (None for shared), after checking it exists and the caller may edit it."""
    exists, owner = call.storage.folder_owner(directory, folder_num)
    if not exists:
        raise unprocessable(f"{directory} folder {folder_num} does not exist", "folderId")
    if not call.caller.may_edit_folder(directory, owner):
        raise resource_denied(f"you may not edit {directory} folder {folder_num}")
    return owner


def _show(call: Call, contact_id: int, select: list[str] | None = None) -> dict:
    return present_contact(call.storage.get_contacts([contact_id])[0], public_url=call.settings.public_url, select=select)


@handles("X1")
def list_contacts(call: Call) -> dict | Response:
    q = call.query
    ids, more = call.storage.list_contact_ids(q, call.caller.user_id)
    url = call.settings.public_url
    if "select" in q.model_fields_set:
        return page([present_contact(c, public_url=url, select=q.select) for c in call.storage.get_contacts(ids)], more)
    # the common case, pages of up to 500: the stored records (column fields included) are joined
    items = contacts_json(call.storage.get_contact_texts(ids), public_url=url)
    body = b"".join((b'{"hasMore":', b"true" if more else b"false", b',"items":[', items, b"]}"))
    return Response(body, media_type="application/json")


@handles("X2")
def create_contact(call: Call) -> dict:
    fields = call.fields()
    folder = fields["folderId"]
    owner = require_editable_folder(call, folder["directory"], folder["folderNum"])
    return _show(call, call.storage.create_contact(fields, owner, call.caller.user_id))


@handles("X3")
def edit_contact(call: Call) -> dict:
    contact_id = require_contact(call, edit=True)
    call.storage.update_contact(contact_id, call.fields())
    return _show(call, contact_id)


@handles("X4")
def delete_contact(call: Call) -> None:
    call.storage.delete_contact(require_contact(call, edit=True))


@handles("X5")
def create_from_card(call: Call) -> dict:
    form = call.query
    directory, folder_num = str(form.directory), form.folderNum
    owner = require_editable_folder(call, directory, folder_num)
    assert call.upload is not None
    fields = _recognise(call, form)
    result = "SUCCESS" if fields else "FAILURE"
    fields = dict(fields)
    for name in ("comment", "remarks"):
        if name in form.model_fields_set:
            fields[name] = getattr(form, name)
    fields["folderId"] = {"directory": directory, "folderNum": folder_num}
    ocr = ("CAN_SEND", _OCR_TYPE[str(form.readerType)], result)
    contact_id = call.storage.create_contact(fields, owner, call.caller.user_id, ocr)
    call.storage.put_card(contact_id, call.upload)
    return {"contactId": contact_id}


def _recognise(call: Call, form: Any) -> dict[str, Any]:
    """The card reader's fields, held to the rules of a typed-in contact; a reader that
    finds nothing (or returns invalid fields) leaves the contact empty: ocrResult FAILURE."""
    recognised = call.settings.card_reader(call.upload or b"", form)
    if not recognised:
        return {}
    try:
        return ContactFields.model_validate(recognised).model_dump(mode="json", exclude_unset=True)
    except ValidationError:
        return {}
