"""Which fields each user type may set (the table at the end of spec 2.4), as data.

Fields not in the table carry no restriction. FACILITY users may set none of the listed
fields; REGISTRATION_ONLY_USER may set the second column only; REGULAR_USER all of them.
"""

from __future__ import annotations

from typing import Iterable

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
