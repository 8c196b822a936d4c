"""Records as a caller may see them: field ranges, ``select`` and the variant's fields.

Callers without user management see only a user's directory fields (http-contract.md);
a ``select`` asking for more is narrowed silently. userId and contactId are always
returned so a record can be told apart whatever was selected.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from corpdir.spec.user import USER_PHONE_FIELDS
from corpdir.spec.variants import Variant

DIRECTORY_USER_FIELDS = frozenset({
    "userId", "fullname", "fullnameKana", "fullnameAlphabet", "employeeNum", "divisions", "position",
    "positionAlphabet", "post", *USER_PHONE_FIELDS, "email1", "email2", "webUrl", "comment", "skill",
    "collaborations", "userType", "sortScore", "contactDetailsUrl",
})
_USER_INTERNAL = frozenset({"password", "divisionIds", "chatSettingList", "tenantCucmAdapterSettingsId", "tenantAlphaAdapterSettingsId"})


def _narrow(record: dict[str, Any], allowed: Iterable[str] | None, always: str) -> dict[str, Any]:
    if allowed is None:
        return record
    keep = set(allowed) | {always}
    return {k: v for k, v in record.items() if k in keep}


def present_user(
    record: dict[str, Any], *, manager: bool, variant: Variant, public_url: str, select: Iterable[str] | None = None
) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k not in _USER_INTERNAL and v is not None}
    out["contactDetailsUrl"] = f"{public_url}/users/{record['userId']}"
    for name in variant.absent_user_fields():
        out.pop(name, None)
    if not manager:
        out = {k: v for k, v in out.items() if k in DIRECTORY_USER_FIELDS}
    return _narrow(out, select, "userId")


def present_division(record: dict[str, Any], variant: Variant) -> dict[str, Any]:
    absent = variant.absent_division_fields()
    return {k: v for k, v in record.items() if k not in absent and v is not None}


def present_contact(record: dict[str, Any], *, public_url: str, select: Iterable[str] | None = None) -> dict[str, Any]:
    out = dict(record)
    out["contactDetailsUrl"] = f"{public_url}/contacts/{record['contactId']}"
    return _narrow(out, select, "contactId")


def contact_json(stored: str, columns: dict[str, Any], *, public_url: str) -> str:
    """``present_contact`` without ``select``, as JSON text, from a contact's stored JSON
    (no nulls, no column fields: ``ContactStore.get_contact_parts``) and its column fields,
    spliced rather than parsed and encoded again: X1 pages of 500 are mostly this."""
    tail = dict(columns)
    tail["contactDetailsUrl"] = f"{public_url}/contacts/{columns['contactId']}"
    rest = json.dumps(tail, ensure_ascii=False, separators=(",", ":"))
    body = stored.strip()
    if body == "{}":
        return rest
    return body[:-1] + "," + rest[1:]


def present_profile(record: dict[str, Any], variant: Variant) -> dict[str, Any]:
    absent = variant.absent_profile_fields()
    return {k: v for k, v in record.items() if k not in absent}
