"""F1 (shared and own personal folders) and P1-P3 (own personal folders)."""

from __future__ import annotations

from corpdir.server.errors import not_found, resource_denied
from corpdir.server.handlers import handles, page
from corpdir.server.pipeline import Call


@handles("F1")
def list_folders(call: Call) -> dict:
    return page(*call.storage.list_folders(call.query, call.caller.user_id, call.caller.edits_shared_folders))


@handles("P1")
def list_personal_folders(call: Call) -> dict:
    return page(*call.storage.list_personal_folders(call.query, call.caller.user_id))


def _show(folder: dict) -> dict:
    return {k: folder[k] for k in ("folderNum", "folderName", "sortScore")}


@handles("P2")
def create_personal_folder(call: Call) -> dict:
    fields = call.fields()
    folder_num = call.storage.create_personal_folder(
        call.caller.user_id, fields["folderName"], fields.get("sortScore", 0), call.storage.now_iso()
    )
    return _show(call.storage.get_personal_folder(folder_num))


@handles("P3")
def edit_personal_folder(call: Call) -> dict:
    folder_num = call.path["folderNum"]
    folder = call.storage.get_personal_folder(folder_num)
    if folder is None:
        raise not_found(f"personal folder {folder_num}")
    if folder["ownerUserId"] != call.caller.user_id:
        raise resource_denied(f"personal folder {folder_num} belongs to another user")
    call.storage.update_personal_folder(folder_num, call.fields())
    return _show(call.storage.get_personal_folder(folder_num))
