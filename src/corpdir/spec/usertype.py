"""Which fields each user type may set (the table at the end of spec 2.4), as data.

Fields not in the table carry no restriction. FACILITY users may set none of the listed
fields; REGISTRATION_ONLY_USER may set the second column only; REGULAR_USER all of them.
"""

from __future__ import annotations

from typing import Any, Iterable

from corpdir.spec.enums import UserType
from corpdir.spec.errors import DetailCode, ErrorDetail

BASIC_ONLY = frozenset({
    "enabled", "forceLocalAuthentication", "deviceId", "deviceIdAcceptInitialize", "password",
    "initialPasswordForceChange", "pbxPartition", "groupware", "pbxAccount", "spCallSettings", "roles",
    "paapiAvailable", "tenantCucmAdapterSettingsId", "ctiPort", "tenantAlphaAdapterSettingsId", "gotalkAvailable",
    "gotalkLogDownloadAvailable", "thanksAvailable",
})
BASIC_AND_REGISTRATION = frozenset({
    "employeeNum", "position", "positionAlphabet", "post", "skill", "companyMobileNum", "personalMobileNum",
    "mobileNum", "webUrl", "chatSettingList", "m365Account", "gwsAccount", "anpiLoginId", "mobileMacAddress",
})

SETTABLE: dict[UserType, frozenset[str]] = {
    UserType.REGULAR_USER: BASIC_ONLY | BASIC_AND_REGISTRATION,
    UserType.REGISTRATION_ONLY_USER: BASIC_AND_REGISTRATION,
    UserType.FACILITY: frozenset(),
}


def not_settable_fields(user_type: UserType | str) -> frozenset[str]:
    """The fields a user of ``user_type`` may not have created or changed."""
    return (BASIC_ONLY | BASIC_AND_REGISTRATION) - SETTABLE[UserType(user_type)]


def publish_rules(schema: dict[str, Any], model: Any = None) -> None:
    """The table as JSON Schema (``json_schema_extra`` of the user bodies): when the body
    names a userType, the fields that type may not set must be absent. (An edit that names
    no type is held to the stored user's type, which a schema cannot know.)"""
    rules = schema.setdefault("allOf", [])
    for user_type in (UserType.FACILITY, UserType.REGISTRATION_ONLY_USER):
        forbidden = sorted(not_settable_fields(user_type) & set(schema.get("properties", {})))
        rules.append({
            "if": {"properties": {"userType": {"const": user_type.value}}, "required": ["userType"]},
            "then": {"properties": {name: False for name in forbidden}},
        })


def violations(sent: Iterable[str], user_type: UserType | str) -> list[ErrorDetail]:
    forbidden = not_settable_fields(user_type)
    return [
        ErrorDetail(
            field=name,
            code=DetailCode.NOT_SETTABLE_FOR_USER_TYPE,
            description=f"cannot be set for a {UserType(user_type).value} user",
        )
        for name in sorted(set(sent) & forbidden)
    ]
