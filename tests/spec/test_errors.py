"""The error object of spec section 7, the detail codes of http-contract.md, and descriptions
that read well in a form."""

from __future__ import annotations

import re
from typing import Any

import pytest

from corpdir.spec import DetailCode, ErrorObject, ErrorStatus, SpecViolation, validate_body, validate_query
from corpdir.spec.errors import HTTP_STATUS, ErrorDetail, json_path


def test_detail_codes_are_the_contracts() -> None:
    assert {c.value for c in DetailCode} == {
        "REQUIRED", "BLANK", "TOO_LONG", "PATTERN", "OUT_OF_RANGE", "TOO_MANY_ITEMS", "NOT_UNIQUE", "INVALID_ENUM",
        "INVALID_TYPE", "UNKNOWN_FIELD", "NOT_SETTABLE_FOR_USER_TYPE", "NOT_EDITABLE",
    }


# spec section 7 plus http-contract.md's 429 status
STATUSES = [
    (400, "INVALID_ARGUMENT"), (401, "UNAUTHENTICATED"), (403, "RESOURCE_PERMISSION_DENIED"),
    (403, "API_PERMISSION_DENIED"), (403, "ACCESS_DENIED"), (404, "NOT_FOUND"), (405, "METHOD_NOT_ALLOWED"),
    (406, "NOT_ACCEPTABLE"), (409, "CONFLICT"), (409, "ALREADY_EXISTS"), (413, "PAYLOAD_TOO_LARGE"),
    (415, "UNSUPPORTED_MEDIA_TYPE"), (422, "UNPROCESSABLE"), (429, "RESOURCE_EXHAUSTED"),
    (500, "INTERNAL_SERVER_ERROR"), (503, "SERVICE_UNAVAILABLE"),
]


@pytest.mark.parametrize(("http", "status"), STATUSES)
def test_http_status(http: int, status: str) -> None:
    assert HTTP_STATUS[ErrorStatus(status)] == http


def test_every_status_has_a_code() -> None:
    assert set(HTTP_STATUS) == set(ErrorStatus) and len(STATUSES) == len(ErrorStatus)


def test_error_object_shape() -> None:
    obj = ErrorObject.of(ErrorStatus.INVALID_ARGUMENT, "bad", [ErrorDetail(field="level", code="OUT_OF_RANGE", description="must be 10 or less")])
    assert obj.model_dump() == {
        "error": {"status": "INVALID_ARGUMENT", "message": "bad",
                  "details": [{"field": "level", "code": "OUT_OF_RANGE", "description": "must be 10 or less"}]}
    }
    assert ErrorObject.model_validate({"error": {"status": "NOT_FOUND", "message": "x"}}).error.details == []


@pytest.mark.parametrize(
    ("loc", "path"),
    [
        (("level",), "level"),
        (("briefHistories", 2, "briefHistoryDate"), "briefHistories[2].briefHistoryDate"),
        (("skills", 3), "skills[3]"),
        (("folderId", "folderNum"), "folderId.folderNum"),
        (("a", 0, 1, "b"), "a[0][1].b"),
        ((), ""),
    ],
)
def test_json_path(loc: tuple[Any, ...], path: str) -> None:
    assert json_path(loc) == path


def test_spec_violation_text_and_for_field() -> None:
    with pytest.raises(SpecViolation) as info:
        validate_body("U10", {"skills": ["a", " "], "oneWord": "x" * 281, "briefHistories": [{"briefHistoryDate": "x", "briefHistoryText": "t"}]})
    exc = info.value
    assert [d.field for d in exc.for_field("skills")] == ["skills[1]"]
    assert [d.field for d in exc.for_field("briefHistories")] == ["briefHistories[0].briefHistoryDate"]
    assert exc.for_field("skill") == []
    text = str(exc)
    assert "oneWord: TOO_LONG at most 280 characters" in text and "skills[1]: BLANK" in text


def test_one_detail_per_field_and_code() -> None:
    with pytest.raises(SpecViolation) as info:
        validate_body("U2", {"loginId": "a b", "fullname": "", "level": 0, "sortScore": -1, "phoneNum": "x"})
    pairs = [(d.field, d.code) for d in info.value.details]
    assert sorted(pairs) == sorted({("loginId", "PATTERN"), ("fullname", "BLANK"), ("level", "OUT_OF_RANGE"),
                                    ("sortScore", "OUT_OF_RANGE"), ("phoneNum", "PATTERN")})


# Descriptions are shown in forms: they name the rule in words, never a constant, a repr,
# or pydantic's phrasing.
BAD_INPUTS: list[tuple[str, Any, str]] = [
    ("U2", {"loginId": "a b", "fullname": "x"}, "C"),
    ("U2", {"loginId": "", "fullname": "x"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "phoneNum": "03 1234"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "webUrl": "ftp://x"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "pcMacAddress": "x"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "groupware": "NONE"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "groupware": "GWS"}, "A"),
    ("U2", {"loginId": "u", "fullname": "x", "divisionIds": [1, 2, 3]}, "A"),
    ("U2", {"loginId": "u", "fullname": "x", "divisionIds": [1, 1]}, "B"),
    ("U2", {"loginId": "u", "fullname": "x", "chatSettingList": [{"chatSettingSeq": 1, "chatAccountId": "a"}] * 2}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "spCallSettings": ["SETTING_6"]}, "A"),
    ("U2", {"loginId": "u", "fullname": "x", "anpiLoginId": "a" * 33}, "A"),
    ("U2", {"loginId": "u", "fullname": "x", "level": "5"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "enabled": "yes"}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "roles": "ADMIN_USER"}, "C"),
    ("U2", {"loginId": "u", "fullname": 1}, "C"),
    ("U2", {"loginId": "u", "fullname": "x", "chatSettingList": ["x"]}, "C"),
    ("H2", {"answered": True, "calledAt": "2024-04-01T10:00:00"}, "C"),
    ("U10", {"briefHistories": [{"briefHistoryDate": "2024-02-30", "briefHistoryText": "x"}]}, "C"),
    ("N1", {"phoneNums": []}, "C"),
    ("N1", {"phoneNums": [""]}, "C"),
    ("L1", {"locations": [{"bleId": "a b", "spotId": "s"}]}, "C"),
    ("D2", {"divisionCode": "a b", "divisionName": "x"}, "C"),
]
QUERIES: list[tuple[str, Any, str]] = [
    ("X1", {"page": 20, "pageSize": "many"}, "C"),
    ("U1", {"select": ["contactDetailsUrl"], "loginIds": ["x"]}, "A"),
    ("U1", {"orderBy": "x"}, "C"),
    ("D1", {"firstLayer": True}, "B"),
]
FORBIDDEN = [
    re.compile(r"Input should"), re.compile(r"<\w+\.\w+: "), re.compile(r"\(s\)"),
    re.compile(r"\b(PHONE_CHARS|URL_OPT|URL_HTTP|MAC|NOT_BLANK)\b"), re.compile(r"^\w+: "),
]


def _details(code: str, data: Any, variant: str, query: bool) -> list[ErrorDetail]:
    with pytest.raises(SpecViolation) as info:
        (validate_query if query else validate_body)(code, data, variant=variant)
    return info.value.details


@pytest.mark.parametrize(
    ("code", "data", "variant", "query"),
    [(*case, False) for case in BAD_INPUTS] + [(*case, True) for case in QUERIES],
)
def test_descriptions_are_readable(code: str, data: Any, variant: str, query: bool) -> None:
    for d in _details(code, data, variant, query):
        assert d.description, d
        for pattern in FORBIDDEN:
            assert not pattern.search(d.description), f"{d.field} {d.code}: {d.description!r}"


@pytest.mark.parametrize(
    ("code", "data", "field", "text"),
    [
        ("U2", {"loginId": "u", "fullname": "x", "phoneNum": "03 1234"}, "phoneNum", "may contain only digits 0-9 and * # , ; + -"),
        ("U2", {"loginId": "u", "fullname": "x", "level": 11}, "level", "must be 10 or less"),
        ("U2", {"loginId": "u", "fullname": "x", "level": 0}, "level", "must be 1 or more"),
        ("U2", {"loginId": "u", "fullname": "x", "level": "5"}, "level", "must be a whole number"),
        ("U2", {"loginId": "u", "fullname": "x", "enabled": "yes"}, "enabled", "must be true or false"),
        ("U2", {"loginId": "u", "fullname": "x", "email1": "a" * 257}, "email1", "at most 256 characters"),
        ("U2", {"loginId": "u", "fullname": "x", "spCallSettings": ["SETTING_1", "SETTING_1"]}, "spCallSettings",
         "must not repeat an entry: SETTING_1 appears more than once"),
        ("U2", {"loginId": "u", "fullname": "x", "pcMacAddress": "x"}, "pcMacAddress",
         "must be empty, or six pairs of hexadecimal digits separated by colons, e.g. aa:bb:cc:dd:ee:ff"),
        ("N1", {"phoneNums": ["1"] * 6}, "phoneNums", "at most 5 items"),
        ("H2", {"answered": True, "calledAt": "2024-04-01T10:00:00"}, "calledAt",
         "must be a valid date-time with a time-zone offset or Z, e.g. 2024-04-01T09:30:00+09:00"),
    ],
)
def test_description_text(code: str, data: Any, field: str, text: str) -> None:
    assert [d.description for d in _details(code, data, "C", False) if d.field == field] == [text]
