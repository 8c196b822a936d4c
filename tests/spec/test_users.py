"""User rules of spec 2.4: the per-user-type table, create/edit, and the profile lists of 2.6."""

from __future__ import annotations

from typing import Any

import pytest

from corpdir.spec import validate_body
from corpdir.spec.enums import UserType
from corpdir.spec.usertype import not_settable_fields
from spec_cases import accepts, detail, rejects

# Spec 2.4 "Fields settable per user type", copied from the spec's table.
BASIC_ONLY = {
    "enabled", "forceLocalAuthentication", "deviceId", "deviceIdAcceptInitialize", "password",
    "initialPasswordForceChange", "pbxPartition", "groupware", "pbxAccount", "spCallSettings", "roles",
    "paapiAvailable", "tenantCucmAdapterSettingsId", "ctiPort", "tenantAlphaAdapterSettingsId", "gotalkAvailable",
    "gotalkLogDownloadAvailable", "thanksAvailable",
}
BASIC_AND_REGISTRATION = {
    "employeeNum", "position", "positionAlphabet", "post", "skill", "companyMobileNum", "personalMobileNum",
    "mobileNum", "webUrl", "chatSettingList", "m365Account", "gwsAccount", "anpiLoginId", "mobileMacAddress",
}
# Fields of the user resource outside the table: no restriction for any type.
UNRESTRICTED = {
    "userType", "sortScore", "level", "fullname", "fullnameKana", "fullnameAlphabet", "divisionIds", "comment",
    "remarks", "extensionNum", "phoneNum", "faxNum", "email1", "email2", "iosPasyncLabel", "forceRequestOperator",
    "pbxFeatureAvailable", "incomingPopupIosApns", "pcMacAddress", "bleId",
}
EXPECTED_NOT_SETTABLE = {
    UserType.REGULAR_USER: set(),
    UserType.REGISTRATION_ONLY_USER: BASIC_ONLY,
    UserType.FACILITY: BASIC_ONLY | BASIC_AND_REGISTRATION,
}

# A valid value for every request field of the user resource.
SAMPLE: dict[str, Any] = {
    "userType": "REGULAR_USER", "enabled": True, "forceLocalAuthentication": False, "deviceId": "DEV1",
    "deviceIdAcceptInitialize": True, "password": "s3cret!", "initialPasswordForceChange": True, "sortScore": 10,
    "level": 5, "fullname": "Taro Yamada", "fullnameKana": "ヤマダ タロウ", "fullnameAlphabet": "Taro Yamada",
    "employeeNum": "E001", "position": "Manager", "positionAlphabet": "Manager", "post": "Tokyo",
    "divisionIds": [1, 2], "comment": "c", "remarks": "r", "skill": "Python", "pbxPartition": "P_1",
    "extensionNum": "1234", "companyMobileNum": "090-1234-5678", "personalMobileNum": "080-1234-5678",
    "phoneNum": "03-1234-5678", "mobileNum": "070-1234-5678", "faxNum": "03-1234-5679", "email1": "taro@example.com",
    "email2": "t@example.com", "webUrl": "https://example.com", "chatSettingList": [{"chatSettingSeq": 1, "chatAccountId": "taro"}],
    "groupware": "M365", "m365Account": "taro@example.com", "gwsAccount": "taro@example.com", "pbxAccount": "taro",
    "iosPasyncLabel": "Taro", "spCallSettings": ["DIRECT_CALL", "SETTING_3"], "roles": ["ADMIN_USER"],
    "paapiAvailable": True, "forceRequestOperator": "SELECT", "pbxFeatureAvailable": True,
    "tenantCucmAdapterSettingsId": 1, "ctiPort": "cti-1", "incomingPopupIosApns": False,
    "tenantAlphaAdapterSettingsId": 2, "gotalkAvailable": True, "gotalkLogDownloadAvailable": False,
    "anpiLoginId": "taro", "mobileMacAddress": "aa:bb:cc:dd:ee:ff", "pcMacAddress": "AA:BB:CC:DD:EE:FF",
    "bleId": "aa:bb", "thanksAvailable": True,
}


def test_table_partitions_the_sample() -> None:
    assert BASIC_ONLY | BASIC_AND_REGISTRATION | UNRESTRICTED == set(SAMPLE)
    assert not (BASIC_ONLY & BASIC_AND_REGISTRATION) and not ((BASIC_ONLY | BASIC_AND_REGISTRATION) & UNRESTRICTED)


def test_every_sample_value_is_valid() -> None:
    model = accepts("U2", SAMPLE)
    assert set(model.body()) == set(SAMPLE) | {"loginId"}


@pytest.mark.parametrize("user_type", list(UserType))
def test_not_settable_fields(user_type: UserType) -> None:
    assert not_settable_fields(user_type) == EXPECTED_NOT_SETTABLE[user_type]
    assert not_settable_fields(user_type.value) == EXPECTED_NOT_SETTABLE[user_type]


TYPE_CASES = [(t, f) for t in UserType for f in sorted(set(SAMPLE) - {"userType"})]


@pytest.mark.parametrize(("user_type", "field"), TYPE_CASES, ids=[f"{t.value}-{f}" for t, f in TYPE_CASES])
def test_create_field_per_user_type(user_type: UserType, field: str) -> None:
    data = {"userType": user_type.value, field: SAMPLE[field]}
    if field in EXPECTED_NOT_SETTABLE[user_type]:
        exc = rejects("U2", data, field, "NOT_SETTABLE_FOR_USER_TYPE")
        assert detail(exc, field).description == f"cannot be set for a {user_type.value} user"
    else:
        accepts("U2", data)


@pytest.mark.parametrize(("user_type", "field"), TYPE_CASES, ids=[f"{t.value}-{f}" for t, f in TYPE_CASES])
def test_edit_field_per_stored_user_type(user_type: UserType, field: str) -> None:
    """U4 without userType: the stored user's type (context) decides."""
    data = {field: SAMPLE[field]}
    context = {"user_type": user_type.value}
    if field in EXPECTED_NOT_SETTABLE[user_type]:
        rejects("U4", data, field, "NOT_SETTABLE_FOR_USER_TYPE", context=context)
    else:
        accepts("U4", data, context=context)


def test_a_facility_gets_no_roles_and_a_registration_only_user_no_password() -> None:
    rejects("U2", {"userType": "FACILITY", "roles": ["ADMIN_USER"]}, "roles", "NOT_SETTABLE_FOR_USER_TYPE")
    ctx = {"user_type": "REGISTRATION_ONLY_USER"}
    rejects("U4", {"password": "new-pass"}, "password", "NOT_SETTABLE_FOR_USER_TYPE", context=ctx)
    accepts("U4", {"employeeNum": "E002"}, context=ctx)


def test_every_forbidden_field_reported() -> None:
    exc = rejects("U2", {"userType": "FACILITY", "roles": ["ADMIN_USER"], "employeeNum": "E1", "enabled": True},
                  "roles", "NOT_SETTABLE_FOR_USER_TYPE")
    assert [(d.field, d.code) for d in exc.details] == [
        ("employeeNum", "NOT_SETTABLE_FOR_USER_TYPE"), ("enabled", "NOT_SETTABLE_FOR_USER_TYPE"),
        ("roles", "NOT_SETTABLE_FOR_USER_TYPE"),
    ]


@pytest.mark.parametrize(
    ("sent_type", "stored_type", "ok"),
    [
        ("REGULAR_USER", "FACILITY", True),  # the type sent in the same edit counts
        ("FACILITY", "REGULAR_USER", False),
        (None, None, True),  # no type anywhere: the create default, REGULAR_USER
        (None, "REGISTRATION_ONLY_USER", False),
    ],
)
def test_edit_type_precedence(sent_type: str | None, stored_type: str | None, ok: bool) -> None:
    data: dict[str, Any] = {"roles": ["ADMIN_USER"]}
    if sent_type:
        data["userType"] = sent_type
    context = {"user_type": stored_type} if stored_type else None
    if ok:
        accepts("U4", data, context=context)
    else:
        rejects("U4", data, "roles", "NOT_SETTABLE_FOR_USER_TYPE", context=context)


def test_create_without_type_is_regular() -> None:
    accepts("U2", {"roles": ["ADMIN_COMPANY"], "password": "x"})


def test_model_instance_revalidated() -> None:
    """validate_body takes a built model too (the client's pre-flight) and keeps OMIT."""
    model = validate_body("U4", {"fullname": "A"})
    again = validate_body("U4", model, variant="A")
    assert again.body() == {"fullname": "A"}


# --- profile lists (2.6) ------------------------------------------------------------------
PROFILE_LISTS = ["skills", "toolTechnologies", "qualifications"]


@pytest.mark.parametrize("field", PROFILE_LISTS)
def test_profile_duplicates_keep_first_in_order(field: str) -> None:
    model = accepts("U10", {field: ["Python", "Go", "Python", "SQL", "Go", "Rust"]})
    assert getattr(model, field) == ["Python", "Go", "SQL", "Rust"]
    assert model.body()[field] == ["Python", "Go", "SQL", "Rust"]


@pytest.mark.parametrize("field", PROFILE_LISTS)
def test_profile_list_21_rejected(field: str) -> None:
    accepts("U10", {field: [f"s{i}" for i in range(20)]})
    rejects("U10", {field: [f"s{i}" for i in range(21)]}, field, "TOO_MANY_ITEMS")


@pytest.mark.parametrize("field", PROFILE_LISTS)
def test_profile_blank_item_path(field: str) -> None:
    exc = rejects("U10", {field: ["a", "b", "c", "  "]}, f"{field}[3]", "BLANK")
    assert [d.field for d in exc.details] == [f"{field}[3]"]


@pytest.mark.parametrize("field", PROFILE_LISTS)
def test_profile_item_length(field: str) -> None:
    accepts("U10", {field: ["a" * 100]})
    rejects("U10", {field: ["ok", "a" * 101]}, f"{field}[1]", "TOO_LONG")


@pytest.mark.parametrize(("field", "limit"), [("briefHistories", 30), ("achievementHistories", 30)])
def test_histories_limit(field: str, limit: int) -> None:
    prefix = field[:-len("Histories")] + "History"
    entry = {f"{prefix}Date": "2024-04-01", f"{prefix}Text": "x"}
    accepts("U10", {field: [entry] * limit})
    rejects("U10", {field: [entry] * (limit + 1)}, field, "TOO_MANY_ITEMS")
