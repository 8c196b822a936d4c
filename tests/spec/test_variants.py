"""Spec section 9: one test (or one parametrized table) per row of the variant table."""

from __future__ import annotations

from typing import Any

import pytest

from corpdir.spec import VARIANTS, get_variant
from corpdir.spec.enums import SpCallSetting
from spec_cases import accepts, detail, rejects

ALL = (
    [f"U{i}" for i in range(1, 12)] + [f"D{i}" for i in range(1, 6)] + [f"X{i}" for i in range(1, 9)]
    + ["F1", "P1", "P2", "P3", "N1"] + [f"H{i}" for i in range(1, 7)] + ["L1"]
)
A_OPS = {"U1", "U2", "U3", "U4", "U5", "D1", "D2", "D3", "D4", "D5"}
B_OPS = A_OPS | {"U6", "U7", "U8", "U9", "U10", "X1", "X2", "X5", "X6", "X7", "X8", "F1"}
C_ONLY = {"U11", "P1", "P2", "P3", "N1", "H1", "H2", "H3", "H4", "H5", "H6", "L1", "X3", "X4"}
EXPECTED_OPS = {"A": A_OPS, "B": B_OPS, "C": set(ALL)}
VARIANT_NAMES = ["A", "B", "C"]


def test_three_variants() -> None:
    assert sorted(VARIANTS) == VARIANT_NAMES
    assert get_variant("b") is get_variant("B") is get_variant(get_variant("B"))
    with pytest.raises(ValueError, match="choose A, B or C"):
        get_variant("D")


# Row: operations present --------------------------------------------------------------
OP_CASES = [(v, code) for v in VARIANT_NAMES for code in ALL]


@pytest.mark.parametrize(("variant", "code"), OP_CASES, ids=[f"{v}-{c}" for v, c in OP_CASES])
def test_operations_present(variant: str, code: str) -> None:
    assert get_variant(variant).has(code) is (code in EXPECTED_OPS[variant])


def test_operation_sets() -> None:
    assert len(ALL) == 36
    assert set(ALL) - B_OPS == C_ONLY  # the last row of the table: absent in A and B
    assert get_variant("A").operations == A_OPS
    assert get_variant("B").operations == B_OPS
    assert get_variant("C").operations == set(ALL)


# Row: 413 PAYLOAD_TOO_LARGE ---------------------------------------------------------------
@pytest.mark.parametrize(("variant", "present"), [("A", False), ("B", True), ("C", True)])
def test_payload_too_large(variant: str, present: bool) -> None:
    assert get_variant(variant).payload_too_large is present


# Row: user field divisionIds --------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "ids", "code"),
    [
        ("A", [1, 2], None), ("A", [1, 2, 3], "TOO_MANY_ITEMS"), ("A", [1, 1], None),
        ("B", [1, 2], None), ("B", [1, 2, 3], "TOO_MANY_ITEMS"), ("B", [1, 1], "NOT_UNIQUE"),
        ("C", list(range(1, 11)), None), ("C", list(range(1, 12)), "TOO_MANY_ITEMS"), ("C", [5, 6, 5], None),
    ],
)
@pytest.mark.parametrize("op", ["U2", "U4"])
def test_division_ids(op: str, variant: str, ids: list[int], code: str | None) -> None:
    """Only B says "unique"; A and C take a repeated division and keep it once."""
    if code is None:
        assert accepts(op, {"divisionIds": ids}, variant=variant).body()["divisionIds"] == list(dict.fromkeys(ids))
    else:
        exc = rejects(op, {"divisionIds": ids}, "divisionIds", code, variant=variant)
        if code == "TOO_MANY_ITEMS":
            limit = get_variant(variant).division_ids_max
            assert detail(exc, "divisionIds").description == f"at most {limit} items"


# Row: groupware, gwsAccount ------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize(
    ("field", "value"),
    [("groupware", "GWS"), ("groupware", "M365"), ("groupware", "BOGUS"), ("gwsAccount", "taro@example.com"),
     ("gwsAccount", "not valid!")],
)
@pytest.mark.parametrize("op", ["U2", "U4"])
def test_groupware_fields(op: str, variant: str, field: str, value: str) -> None:
    valid = value in ("GWS", "M365", "taro@example.com")
    if variant == "C":
        if valid:
            accepts(op, {field: value}, variant=variant)
        else:
            rejects(op, {field: value}, field, "INVALID_ENUM" if field == "groupware" else "PATTERN")
    else:
        # absent in A and B: UNKNOWN_FIELD whatever the value
        exc = rejects(op, {field: value}, field, "UNKNOWN_FIELD", variant=variant)
        assert len(exc.details) == 1
        assert f"variant {variant}" in exc.details[0].description


@pytest.mark.parametrize(
    ("variant", "absent"),
    [("A", {"groupware", "gwsAccount", "contactDetailsUrl"}), ("B", {"groupware", "gwsAccount"}), ("C", set())],
)
def test_absent_user_fields(variant: str, absent: set[str]) -> None:
    assert get_variant(variant).absent_user_fields() == absent


# Row: contactDetailsUrl (user) and its select value -------------------------------------------
@pytest.mark.parametrize(("variant", "ok"), [("A", False), ("B", True), ("C", True)])
def test_contact_details_url_select(variant: str, ok: bool) -> None:
    data = {"select": ["userId", "contactDetailsUrl"]}
    if ok:
        accepts("U1", data, variant=variant)
    else:
        exc = rejects("U1", data, "select[1]", "INVALID_ENUM", variant=variant)
        assert "contactDetailsUrl" in exc.details[0].description


@pytest.mark.parametrize(("variant", "field"), [("A", "groupware"), ("A", "gwsAccount"), ("B", "gwsAccount")])
def test_select_of_absent_groupware_fields(variant: str, field: str) -> None:
    rejects("U1", {"select": [field]}, "select[0]", "INVALID_ENUM", variant=variant)
    accepts("U1", {"select": [field]}, variant="C")


# Row: U1 filters loginIds, userType, includeSubDepartment ------------------------------------
U1_FILTERS: dict[str, Any] = {"loginIds": ["taro"], "userType": "FACILITY", "includeSubDepartment": True}
U1_PRESENT = {"A": set(), "B": {"loginIds"}, "C": {"loginIds", "userType", "includeSubDepartment"}}
U1_CASES = [(v, f) for v in VARIANT_NAMES for f in U1_FILTERS]


@pytest.mark.parametrize(("variant", "name"), U1_CASES, ids=[f"{v}-{f}" for v, f in U1_CASES])
def test_u1_filters(variant: str, name: str) -> None:
    assert (name in get_variant(variant).u1_filters) is (name in U1_PRESENT[variant])
    if name in U1_PRESENT[variant]:
        assert accepts("U1", {name: U1_FILTERS[name]}, variant=variant).params() == {name: U1_FILTERS[name]}
    else:
        rejects("U1", {name: U1_FILTERS[name]}, name, "UNKNOWN_FIELD", variant=variant)
        rejects("U1", {name: "garbage"}, name, "UNKNOWN_FIELD", variant=variant)


def test_include_sub_department_default_not_sent_in_a() -> None:
    assert accepts("U1", {}, variant="A").params() == {}


# Row: spCallSettings values ---------------------------------------------------------------------
SP_CASES = [(v, s) for v in VARIANT_NAMES for s in SpCallSetting]


@pytest.mark.parametrize(("variant", "setting"), SP_CASES, ids=[f"{v}-{s.value}" for v, s in SP_CASES])
def test_sp_call_settings(variant: str, setting: SpCallSetting) -> None:
    allowed = setting.number <= 5 or variant == "C"
    if allowed:
        accepts("U2", {"spCallSettings": [setting.value]}, variant=variant)
    else:
        exc = rejects("U2", {"spCallSettings": ["DIRECT_CALL", setting.value]}, "spCallSettings[1]", "INVALID_ENUM", variant=variant)
        assert exc.details[0].description.startswith(f"{setting.value} is not available")
        assert "SETTING_5" in exc.details[0].description


# Row: anpiLoginId -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "value", "code"),
    [
        ("A", "=x", "PATTERN"), ("B", "=x", "PATTERN"), ("C", "=x", None),
        ("A", "abc.def", "PATTERN"), ("C", "a=b^c_{d}~e@f.g-h", None),
        ("A", "a" * 32, None), ("B", "a" * 32, None), ("A", "a" * 33, "TOO_LONG"), ("B", "a" * 33, "TOO_LONG"),
        ("C", "a" * 33, None), ("C", "a" * 40, None), ("C", "a" * 41, "TOO_LONG"), ("C", "a b", "PATTERN"),
    ],
)
def test_anpi_login_id(variant: str, value: str, code: str | None) -> None:
    if code is None:
        accepts("U2", {"anpiLoginId": value}, variant=variant)
    else:
        rejects("U2", {"anpiLoginId": value}, "anpiLoginId", code, variant=variant)


# Row: bleId -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "value", "code"),
    [
        ("A", "aa:BB:01", None), ("B", "aa:BB:01", None), ("C", "aa:BB:01", None),
        ("A", "a_b", "PATTERN"), ("B", "a.b@c-d", "PATTERN"), ("C", "a_b.c@d-e:f", None),
        ("A", "a" * 64, None), ("A", "a" * 65, "TOO_LONG"), ("C", "a" * 64, None), ("C", "a" * 65, "TOO_LONG"),
        ("C", "a b", "PATTERN"),
    ],
)
def test_ble_id(variant: str, value: str, code: str | None) -> None:
    if code is None:
        accepts("U2", {"bleId": value}, variant=variant)
    else:
        rejects("U2", {"bleId": value}, "bleId", code, variant=variant)


# Row: loginId characters --------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "ok"), [("A", True), ("B", False), ("C", False)])
def test_login_id_colon(variant: str, ok: bool) -> None:
    if ok:
        assert accepts("U2", {"loginId": "a:b"}, variant=variant).loginId == "a:b"
    else:
        rejects("U2", {"loginId": "a:b"}, "loginId", "PATTERN", variant=variant)


# Row: division childDivisionIds, divisionCode limit --------------------------------------------
@pytest.mark.parametrize(("variant", "absent"), [("A", {"childDivisionIds"}), ("B", {"childDivisionIds"}), ("C", set())])
def test_child_division_ids(variant: str, absent: set[str]) -> None:
    assert get_variant(variant).absent_division_fields() == absent
    assert get_variant(variant).child_division_ids is (not absent)


@pytest.mark.parametrize(("variant", "limit"), [("A", 50), ("B", 50), ("C", 100)])
@pytest.mark.parametrize("op", ["D2", "D4"])
def test_division_code_limit(op: str, variant: str, limit: int) -> None:
    accepts(op, {"divisionCode": "a" * limit}, variant=variant)
    exc = rejects(op, {"divisionCode": "a" * (limit + 1)}, "divisionCode", "TOO_LONG", variant=variant)
    assert detail(exc, "divisionCode").description == f"at most {limit} characters"


# Row: D1 filters divisionCodes, firstLayer ----------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize(("name", "value", "bad"), [("divisionCodes", ["SALES"], ["no good"]), ("firstLayer", True, "maybe")])
def test_d1_filters(variant: str, name: str, value: Any, bad: Any) -> None:
    if variant == "C":
        assert accepts("D1", {name: value}, variant=variant).params() == {name: value}
    else:
        rejects("D1", {name: value}, name, "UNKNOWN_FIELD", variant=variant)
        rejects("D1", {name: bad}, name, "UNKNOWN_FIELD", variant=variant)


@pytest.mark.parametrize(("variant", "limit"), [("C", 100)])
def test_d1_division_codes_follow_division_code_rule(variant: str, limit: int) -> None:
    accepts("D1", {"divisionCodes": ["a" * limit]}, variant=variant)
    rejects("D1", {"divisionCodes": ["ok", "a" * (limit + 1)]}, "divisionCodes[1]", "TOO_LONG", variant=variant)
    rejects("D1", {"divisionCodes": ["a b"]}, "divisionCodes[0]", "PATTERN", variant=variant)


# Row: profile selfUpdatedAt -------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "absent"), [("B", {"selfUpdatedAt"}), ("C", set())])
def test_profile_self_updated_at(variant: str, absent: set[str]) -> None:
    assert get_variant(variant).absent_profile_fields() == absent


def test_profile_self_updated_at_not_applicable_in_a() -> None:
    """n/a in A: the variant has no profile operations at all."""
    assert not get_variant("A").has("U9") and not get_variant("A").has("U10")


# Row: operations only in C ---------------------------------------------------------------------------
@pytest.mark.parametrize("code", sorted(C_ONLY))
def test_c_only_operations(code: str) -> None:
    assert not get_variant("A").has(code)
    assert not get_variant("B").has(code)
    assert get_variant("C").has(code)


# The default variant is C ---------------------------------------------------------------------------
def test_default_variant_is_c() -> None:
    from corpdir.spec import validate_body

    assert validate_body("U2", {"loginId": "u", "fullname": "x", "spCallSettings": ["SETTING_10"]}).body()
