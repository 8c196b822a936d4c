"""Records as a caller may see them: field ranges, ``select`` and the variant's fields.

Callers without user management see only a user's directory fields (http-contract.md);
a ``select`` asking for more is narrowed silently. userId and contactId are always
returned so a record can be told apart whatever was selected.
"""

from __future__ import annotations

from json.encoder import encode_basestring as _string  # the C encoder's string escaping (ensure_ascii=False)
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


def contacts_json(texts: Iterable[tuple[int, bytes, bytes | None]], *, public_url: str) -> bytes:
    """``present_contact`` without ``select`` of each contact, as UTF-8 JSON joined by commas,
    from ``ContactStore.get_contact_texts``: registeredUser and contactDetailsUrl are spliced
    into the stored texts; nothing is parsed, and nothing but the ids is encoded here."""
    url = (',"contactDetailsUrl":' + _string(public_url + "/contacts/")[:-1]).encode()  # the quote is closed after the id
    pieces = []  # one join at the end: no bytes copied twice
    for contact_id, text, registrar in texts:
        pieces.append(text[:-1])
        if registrar is not None:
            pieces.append(b',"registeredUser":')
            pieces.append(registrar)
        pieces.append(url)
        pieces.append(b'%d"},' % contact_id)
    if pieces:
        pieces[-1] = pieces[-1][:-1]
    return b"".join(pieces)


def present_profile(record: dict[str, Any], variant: Variant) -> dict[str, Any]:
    absent = variant.absent_profile_fields()
    return {k: v for k, v in record.items() if k not in absent}
