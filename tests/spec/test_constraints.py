"""The shared constraints of spec section 2 at every boundary, for every field that uses them.

Each case names the operation, the field (as the JSON path of the detail) and the detail
code of http-contract.md that a violation must carry.
"""

from __future__ import annotations

from typing import Any

import pytest

from spec_cases import MINIMAL, MINIMAL_QUERY, accepts, detail, rejects


def _put(path: str, value: Any) -> dict[str, Any]:
    """'phoneNums[0]' -> {'phoneNums': [value]}; 'freeWords[0]' likewise; else {path: value}."""
    if path.endswith("[0]"):
        return {path[:-3]: [value]}
    return {path: value}


# --- PHONE_CHARS ------------------------------------------------------------------------
# (operation, path, one or more characters required)
PHONE_FIELDS = [
    *[("U2", f, False) for f in ("extensionNum", "companyMobileNum", "personalMobileNum", "phoneNum", "mobileNum", "faxNum")],
    *[("U4", f, False) for f in ("extensionNum", "phoneNum", "faxNum")],
    ("D2", "divisionPhoneNum", False),
    ("D4", "divisionPhoneNum", False),
    *[("X2", f, False) for f in (
        "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "phoneNum", "companyMobileNum",
        "personalMobileNum", "mobileNum", "faxNum",
    )],
    ("X3", "phoneNum", False),
    ("U1", "phoneNum", False),
    ("X1", "phoneNum", False),
    ("H2", "fromNum", True),
    ("H3", "fromNum", False),  # spec 2.10: one or more "when used in create"; an edit may clear it
    ("H5", "toNum", True),
    ("H6", "toNum", True),
    ("N1", "phoneNums[0]", True),
]
PHONE_IDS = [f"{code}-{path}" for code, path, _ in PHONE_FIELDS]


@pytest.mark.parametrize(("code", "path", "one_or_more"), PHONE_FIELDS, ids=PHONE_IDS)
@pytest.mark.parametrize("value", ["+81-3-1234-5678,*#;", "0312345678", "1" * 50])
def test_phone_chars_accepted(code: str, path: str, one_or_more: bool, value: str) -> None:
    accepts(code, _put(path, value))


@pytest.mark.parametrize(("code", "path", "one_or_more"), PHONE_FIELDS, ids=PHONE_IDS)
@pytest.mark.parametrize("value", ["03 1234", "(03)", "03-1234-5678x", "０３"])
def test_phone_chars_rejected(code: str, path: str, one_or_more: bool, value: str) -> None:
    exc = rejects(code, _put(path, value), path, "PATTERN")
    assert "digits 0-9 and * # , ; + -" in detail(exc, path).description


@pytest.mark.parametrize(("code", "path", "one_or_more"), PHONE_FIELDS, ids=PHONE_IDS)
def test_phone_chars_length(code: str, path: str, one_or_more: bool) -> None:
    exc = rejects(code, _put(path, "1" * 51), path, "TOO_LONG")
    assert detail(exc, path).description == "at most 50 characters"


@pytest.mark.parametrize(("code", "path", "one_or_more"), PHONE_FIELDS, ids=PHONE_IDS)
def test_phone_chars_empty(code: str, path: str, one_or_more: bool) -> None:
    """Zero characters are allowed unless the field says one or more (fromNum, toNum, N1)."""
    if one_or_more:
        exc = rejects(code, _put(path, ""), path, "PATTERN")
        assert detail(exc, path).description.startswith("must not be empty")
    else:
        accepts(code, _put(path, ""))


# --- MAC --------------------------------------------------------------------------------
MAC_FIELDS = [("U2", "mobileMacAddress"), ("U2", "pcMacAddress"), ("U4", "pcMacAddress")]


@pytest.mark.parametrize(("code", "field"), MAC_FIELDS)
@pytest.mark.parametrize("value", ["aa:bb:cc:dd:ee:ff", "AA:BB:CC:DD:EE:FF", "0a:1B:2c:3D:4e:5F", ""])
def test_mac_accepted(code: str, field: str, value: str) -> None:
    assert accepts(code, {field: value}).body()[field] == value


@pytest.mark.parametrize(("code", "field"), MAC_FIELDS)
@pytest.mark.parametrize(
    "value", ["aa-bb-cc-dd-ee-ff", "aabbccddeeff", "aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:fg", "aa:bb:cc:dd:ee:ff:00", " "]
)
def test_mac_rejected(code: str, field: str, value: str) -> None:
    rejects(code, {field: value}, field, "PATTERN")


# --- URL_OPT and URL_HTTP ------------------------------------------------------------------
URL_OPT_FIELDS = [("U2", "webUrl"), ("U4", "webUrl"), ("D2", "divisionUrl"), ("D4", "divisionUrl")]
URL_HTTP_FIELDS = [("X2", "companyUrl"), ("X2", "divisionUrl"), ("X2", "webUrl"), ("X3", "webUrl")]


@pytest.mark.parametrize(("code", "field"), URL_OPT_FIELDS)
@pytest.mark.parametrize(
    "value", ["example.com", "https://x.y/p?q=1", "http://example.com/a_b~c", "", "www.example.co.jp/#top"]
)
def test_url_opt_accepted(code: str, field: str, value: str) -> None:
    accepts(code, {field: value})


@pytest.mark.parametrize(("code", "field"), URL_OPT_FIELDS)
@pytest.mark.parametrize("value", ["ftp://x", "a b", "mailto://x", "https://a b", "例え.jp", "https://", "http://"])
def test_url_opt_rejected(code: str, field: str, value: str) -> None:
    rejects(code, {field: value}, field, "PATTERN")


@pytest.mark.parametrize(("code", "field"), URL_HTTP_FIELDS)
@pytest.mark.parametrize("value", ["", "https://x", "http://example.com/p?q=1&r=2"])
def test_url_http_accepted(code: str, field: str, value: str) -> None:
    accepts(code, {field: value})


@pytest.mark.parametrize(("code", "field"), URL_HTTP_FIELDS)
@pytest.mark.parametrize("value", ["x.com", "ftp://x", "https://a b", "https://ftp://x", "//x.com", "https://", "http://"])
def test_url_http_rejected(code: str, field: str, value: str) -> None:
    rejects(code, {field: value}, field, "PATTERN")


@pytest.mark.parametrize(("code", "field"), URL_OPT_FIELDS[:1] + URL_HTTP_FIELDS[:1])
def test_url_length(code: str, field: str) -> None:
    prefix = "https://"
    accepts(code, {field: prefix + "a" * (256 - len(prefix))})
    rejects(code, {field: prefix + "a" * (257 - len(prefix))}, field, "TOO_LONG")


# --- character-set rules: one accepted value, one rejected value, the length limit -------
# (operation, field, variant, accepted, rejected, max length)
CHARSET_RULES = [
    ("U2", "deviceId", "C", "AB12cd34", "ab-1", 8),
    ("U2", "deviceId", "C", "", "ab 1", 8),
    ("U2", "pbxPartition", "C", "Part 1_a-b", "a.b", 50),
    ("U2", "ctiPort", "C", "cti.port_1-2", "cti port", 15),
    ("U2", "anpiLoginId", "C", "a=b^c_{d}~e@f.g-h", "a b", 40),
    ("U2", "anpiLoginId", "A", "abc123", "=x", 32),
    ("U2", "bleId", "C", "aa:bb_cc.dd@ee-ff", "a b", 64),
    ("U2", "bleId", "A", "AA:BB:01", "a_b", 64),
    ("L1", "bleId", "C", "aa:bb_cc.dd@ee-ff", "a/b", 64),
    ("U2", "m365Account", "C", "taro.y-a_b@example.com", "o'neil@example.com", 256),
    ("U2", "gwsAccount", "C", "o'neil.y-a_b@example.com", "a+b@example.com", 256),
    ("D2", "divisionCode", "C", "A-1_b.c@(x){y}[z]", "a b", 100),
    ("D2", "divisionCode", "A", "A-1_b.c@(x){y}[z]", "a/b", 50),
    ("D4", "divisionCode", "C", "SALES-01", "営業", 100),
    ("U2", "loginId", "C", "a.b!c#d$e%f&g'h*i+j/k=l?m^n_o`p{q}r~s-t|u@x", "a b", 50),
    ("U2", "loginId", "A", "a:b", "a b", 50),
]
CHARSET_IDS = [f"{code}-{field}-{variant}-{bad!r}" for code, field, variant, _, bad, _ in CHARSET_RULES]


def _body(code: str, field: str, value: str) -> dict[str, Any]:
    if code == "L1":
        return {"locations": [{"bleId": value, "spotId": "s"}]}
    return {field: value}


def _path(code: str, field: str) -> str:
    return "locations[0].bleId" if code == "L1" else field


@pytest.mark.parametrize(("code", "field", "variant", "good", "bad", "max_len"), CHARSET_RULES, ids=CHARSET_IDS)
def test_charset_accepts(code: str, field: str, variant: str, good: str, bad: str, max_len: int) -> None:
    accepts(code, _body(code, field, good), variant=variant)


@pytest.mark.parametrize(("code", "field", "variant", "good", "bad", "max_len"), CHARSET_RULES, ids=CHARSET_IDS)
def test_charset_rejects(code: str, field: str, variant: str, good: str, bad: str, max_len: int) -> None:
    exc = rejects(code, _body(code, field, bad), _path(code, field), "PATTERN", variant=variant)
    assert detail(exc, _path(code, field)).description.startswith(("may contain only", "must not be empty and"))


@pytest.mark.parametrize(("code", "field", "variant", "good", "bad", "max_len"), CHARSET_RULES, ids=CHARSET_IDS)
def test_charset_length(code: str, field: str, variant: str, good: str, bad: str, max_len: int) -> None:
    accepts(code, _body(code, field, "a" * max_len), variant=variant)
    exc = rejects(code, _body(code, field, "a" * (max_len + 1)), _path(code, field), "TOO_LONG", variant=variant)
    assert detail(exc, _path(code, field)).description == f"at most {max_len} characters"


@pytest.mark.parametrize(("code", "field"), [("U2", "loginId"), ("D2", "divisionCode"), ("D1", "divisionCodes[0]")])
def test_one_or_more_charsets_refuse_empty(code: str, field: str) -> None:
    exc = rejects(code, _put(field, ""), field, "PATTERN")
    assert detail(exc, field).description.startswith("must not be empty and may contain only")


# --- plain length limits -----------------------------------------------------------------
TEXT_LIMITS = [
    *[("U2", f, n) for f, n in [
        ("fullname", 50), ("fullnameKana", 50), ("fullnameAlphabet", 50), ("employeeNum", 50), ("position", 100),
        ("positionAlphabet", 100), ("post", 50), ("comment", 500), ("remarks", 500), ("skill", 500),
        ("email1", 256), ("email2", 256), ("pbxAccount", 256), ("iosPasyncLabel", 25), ("password", 50),
    ]],
    ("U4", "fullname", 50),
    ("U4", "password", 50),
    *[("D2", f, 100) for f in ("divisionName", "divisionNameKana", "divisionNameAlphabet")],
    ("D4", "divisionName", 100),
    ("U10", "oneWord", 280),
    ("U10", "jobDescription", 280),
    ("U10", "skills[0]", 100),
    ("U10", "toolTechnologies[0]", 100),
    ("U10", "qualifications[0]", 100),
    *[("X2", f, n) for f, n in [
        ("companyName", 200), ("companyNameKana", 200), ("divisionName", 50), ("divisionNameKana", 50),
        ("position", 100), ("fullname", 50), ("fullnameKana", 50), ("fullnameAlphabet", 50), ("email1", 256),
        ("email2", 256), ("comment", 500), ("remarks", 500),
    ]],
    ("X3", "fullname", 50),
    ("P2", "folderName", 50),
    ("P3", "folderName", 50),
    ("H2", "note", 50),
    ("H3", "note", 50),
    ("H5", "note", 50),
    ("H6", "note", 50),
    ("X5", "comment", 500),
    ("X5", "remarks", 500),
    *[("U1", f, n) for f, n in [
        ("fullname", 50), ("fullnameKana", 50), ("employeeNum", 50), ("email1", 256), ("freeWords[0]", 50),
    ]],
    *[("X1", f, n) for f, n in [
        ("fullname", 50), ("fullnameKana", 50), ("email", 256), ("companyName", 200), ("companyNameKana", 200),
        ("divisionName", 50), ("divisionNameKana", 50),
    ]],
]


@pytest.mark.parametrize(("code", "path", "max_len"), TEXT_LIMITS, ids=[f"{c}-{p}" for c, p, _ in TEXT_LIMITS])
def test_text_length_limit(code: str, path: str, max_len: int) -> None:
    accepts(code, _put(path, "a" * max_len))
    exc = rejects(code, _put(path, "a" * (max_len + 1)), path, "TOO_LONG")
    assert detail(exc, path).description == f"at most {max_len} characters"


def test_fullname_boundary_and_blank() -> None:
    """fullname at its limit, one past it, and blanks only: the three answers a form shows."""
    assert accepts("U2", {"fullname": "x" * 50}).fullname == "x" * 50
    rejects("U2", {"fullname": "x" * 51}, "fullname", "TOO_LONG")
    exc = rejects("U2", {"fullname": "   "}, "fullname", "BLANK")
    assert detail(exc, "fullname").description == "must not be empty or only whitespace"


# --- NOT_BLANK ---------------------------------------------------------------------------
NOT_BLANK = [
    ("U2", "fullname"), ("U2", "password"), ("U4", "fullname"), ("U4", "password"), ("D2", "divisionName"),
    ("D4", "divisionName"), ("X2", "fullname"), ("X3", "fullname"), ("P2", "folderName"), ("P3", "folderName"),
    ("U10", "skills[0]"), ("U10", "toolTechnologies[0]"), ("U10", "qualifications[0]"),
]


@pytest.mark.parametrize(("code", "path"), NOT_BLANK)
@pytest.mark.parametrize("value", ["", "   ", "\t\n", "\u3000"])
def test_not_blank(code: str, path: str, value: str) -> None:
    rejects(code, _put(path, value), path, "BLANK")


@pytest.mark.parametrize(("code", "path"), NOT_BLANK)
def test_not_blank_accepts_text_with_spaces(code: str, path: str) -> None:
    accepts(code, _put(path, " a "))


# --- REQUIRED ----------------------------------------------------------------------------
REQUIRED = [
    ("U2", "loginId"), ("U2", "fullname"), ("D2", "divisionCode"), ("D2", "divisionName"), ("X2", "folderId"),
    ("X2", "fullname"), ("P2", "folderName"), ("N1", "phoneNums"), ("H2", "answered"), ("H2", "calledAt"),
    ("H5", "toNum"), ("H5", "answered"), ("H5", "callingAt"), ("L1", "locations"), ("U11", "destinations"),
    ("X5", "directory"), ("X5", "folderNum"),
]


@pytest.mark.parametrize(("code", "field"), REQUIRED)
def test_required(code: str, field: str) -> None:
    from corpdir.spec import SpecViolation, validate_body, validate_query

    if code in MINIMAL:
        data = {k: v for k, v in MINIMAL[code].items() if k != field}
        validate = lambda: validate_body(code, data)  # noqa: E731
    else:
        data = {k: v for k, v in MINIMAL_QUERY[code].items() if k != field}
        validate = lambda: validate_query(code, data)  # noqa: E731
    with pytest.raises(SpecViolation) as info:
        validate()
    assert [(d.field, d.code, d.description) for d in info.value.details] == [(field, "REQUIRED", "is required")]


@pytest.mark.parametrize(
    ("code", "path"),
    [("X2", "folderId.directory"), ("X2", "folderId.folderNum"), ("L1", "locations[0].spotId"),
     ("U11", "destinations[0].loginId"), ("U10", "briefHistories[0].briefHistoryDate")],
)
def test_required_nested(code: str, path: str) -> None:
    data = {
        "X2": {"folderId": {"directory": "SHARED", "folderNum": 1}},
        "L1": {"locations": [{"bleId": "a", "spotId": "s"}]},
        "U11": {"destinations": [{"loginId": "a", "destinationId": 1}]},
        "U10": {"briefHistories": [{"briefHistoryDate": "2024-04-01", "briefHistoryText": "joined"}]},
    }[code]
    outer, _, inner = path.partition(".")
    container = data[outer.split("[")[0]]
    target = container[0] if isinstance(container, list) else container
    del target[inner]
    rejects(code, data, path, "REQUIRED")


# --- numeric ranges ----------------------------------------------------------------------
# (operation, path, accepted values, rejected values)
RANGES = [
    ("U2", "level", [1, 5, 10], [0, 11, -1]),
    ("U4", "level", [1, 10], [0, 11]),
    ("U2", "sortScore", [0, 999_999_999], [-1, 1_000_000_000]),
    ("D2", "sortScore", [0, 999_999_999], [-1, 1_000_000_000]),
    ("P2", "sortScore", [0, 999_999_999], [-1, 1_000_000_000]),
    ("P3", "sortScore", [0, 999_999_999], [-1, 1_000_000_000]),
    ("D2", "parentDivisionId", [1], [0, -1]),
    ("D4", "parentDivisionId", [0, 1], [-1]),
    ("H2", "duration", [0, 2**31 - 1], [-1, 2**31]),
    ("H5", "duration", [0, 3600], [-1]),
    ("U2", "divisionIds[0]", [1], [0]),
    ("X5", "folderNum", [1], [0, -1]),
    ("U1", "page", [0, 2**31 - 1], [-1]),
    ("U1", "pageSize", [1, 100], [0, 101]),
    ("D1", "pageSize", [1, 100], [0, 101]),
    ("F1", "pageSize", [1, 100], [0, 101]),
    ("P1", "pageSize", [1, 100], [0, 101]),
    ("X1", "page", [0, 19], [20, -1]),
    ("X1", "pageSize", [1, 500], [0, 501]),
    ("H1", "pageSize", [1, 20], [0, 21]),
    ("H4", "pageSize", [1, 20], [0, 21]),
    ("H1", "page", [0, 1000], [-1]),
]
RANGE_CASES = [(c, p, v, ok) for c, p, good, bad in RANGES for v, ok in [*[(g, True) for g in good], *[(b, False) for b in bad]]]


@pytest.mark.parametrize(("code", "path", "value", "ok"), RANGE_CASES, ids=[f"{c}-{p}-{v}" for c, p, v, _ in RANGE_CASES])
def test_numeric_range(code: str, path: str, value: int, ok: bool) -> None:
    if ok:
        accepts(code, _put(path, value))
    else:
        exc = rejects(code, _put(path, value), path, "OUT_OF_RANGE")
        assert detail(exc, path).description.startswith("must be ")


# int64 identifier filters of the queries (spec 2.1: identifiers are int64). They arrive as
# query text; a number past int64 is OUT_OF_RANGE, not a server error from storage.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
ID_FILTERS = [
    ("U1", "userIds[0]"), ("U1", "divisionIds[0]"), ("D1", "divisionIds[0]"),
    ("X1", "folderNums[0]"), ("X1", "registeredUserId"),
]
ID_FILTER_CASES = [
    (code, path, value, ok)
    for code, path in ID_FILTERS
    for value, ok in [(1, True), (INT64_MAX, True), (INT64_MIN, True), (INT64_MAX + 1, False), (INT64_MIN - 1, False)]
]


@pytest.mark.parametrize(
    ("code", "path", "value", "ok"), ID_FILTER_CASES, ids=[f"{c}-{p}-{v}" for c, p, v, _ in ID_FILTER_CASES]
)
def test_query_id_filters_are_int64(code: str, path: str, value: int, ok: bool) -> None:
    if ok:
        accepts(code, _put(path, str(value)))
    else:
        exc = rejects(code, _put(path, str(value)), path, "OUT_OF_RANGE")
        assert detail(exc, path).description.startswith("must be ")


def test_x2_folder_num_range_nested_path() -> None:
    rejects("X2", {"folderId": {"directory": "SHARED", "folderNum": 0}}, "folderId.folderNum", "OUT_OF_RANGE")


@pytest.mark.parametrize(
    ("code", "expected"),
    [("U1", (0, 30)), ("D1", (0, 30)), ("F1", (0, 30)), ("P1", (0, 30)), ("X1", (0, 30)), ("H1", (0, 20)), ("H4", (0, 20))],
)
def test_paging_defaults(code: str, expected: tuple[int, int]) -> None:
    query = accepts(code, {})
    assert (query.page, query.pageSize) == expected
    assert query.params() == {}, "defaults are not sent"


# --- array sizes -------------------------------------------------------------------------
# (operation, field, limit, item factory)
ARRAYS = [
    ("U1", "divisionIds", 50, lambda i: i + 1),
    ("U1", "userIds", 50, lambda i: i + 1),
    ("U1", "loginIds", 50, lambda i: f"user{i}"),
    ("U1", "freeWords", 10, lambda i: f"w{i}"),
    ("D1", "divisionIds", 50, lambda i: i + 1),
    ("D1", "divisionCodes", 50, lambda i: f"D{i}"),
    ("X1", "freeWords", 10, lambda i: f"w{i}"),
    ("X1", "folderNums", 10, lambda i: i + 1),
    ("N1", "phoneNums", 5, lambda i: f"03{i:08d}"),
    ("L1", "locations", 10_000, lambda i: {"bleId": f"tag{i}", "spotId": "s"}),
    ("U11", "destinations", 10_000, lambda i: {"loginId": f"u{i}", "destinationId": i + 1}),
    ("U2", "divisionIds", 10, lambda i: i + 1),
    ("U10", "skills", 20, lambda i: f"skill {i}"),
    ("U10", "toolTechnologies", 20, lambda i: f"tool {i}"),
    ("U10", "qualifications", 20, lambda i: f"qualification {i}"),
    ("U10", "briefHistories", 30, lambda i: {"briefHistoryDate": "2024-04-01", "briefHistoryText": f"t{i}"}),
    ("U10", "achievementHistories", 30, lambda i: {"achievementHistoryDate": "2024-04-01", "achievementHistoryText": f"t{i}"}),
    ("U10", "externalLinks", 3, lambda i: {"externalLinkUrl": f"https://x/{i}", "externalLinkTitle": "x"}),
    ("U10", "customColumns", 3, lambda i: {"customColumnId": i + 1, "customColumnValue": "v"}),
]


@pytest.mark.parametrize(("code", "field", "limit", "make"), ARRAYS, ids=[f"{c}-{f}" for c, f, _, _ in ARRAYS])
def test_array_limit(code: str, field: str, limit: int, make: Any) -> None:
    accepts(code, {field: [make(i) for i in range(limit)]})
    exc = rejects(code, {field: [make(i) for i in range(limit + 1)]}, field, "TOO_MANY_ITEMS")
    assert detail(exc, field).description == f"at most {limit} items"


@pytest.mark.parametrize(("code", "field"), [("N1", "phoneNums"), ("L1", "locations")])
def test_array_at_least_one(code: str, field: str) -> None:
    accepts(code, {field: MINIMAL[code][field][:1]})
    exc = rejects(code, {field: []}, field, "OUT_OF_RANGE")
    assert detail(exc, field).description == "at least 1 item"


@pytest.mark.parametrize(
    ("code", "field", "items"),
    [
        ("U2", "roles", ["ADMIN_USER", "ADMIN_DIVISION", "ADMIN_USER"]),
        ("U2", "spCallSettings", ["DIRECT_CALL", "DIRECT_CALL"]),
        ("U2", "chatSettingList", [{"chatSettingSeq": 1, "chatAccountId": "a"}] * 2),
        ("U10", "customColumns", [{"customColumnId": 1, "customColumnValue": "v"}] * 2),
        ("U1", "select", ["userId", "fullname", "userId"]),
        ("X1", "select", ["contactId", "contactId"]),
    ],
)
def test_unique_arrays(code: str, field: str, items: list[Any]) -> None:
    exc = rejects(code, {field: items}, field, "NOT_UNIQUE")
    description = detail(exc, field).description
    assert description.startswith("must not repeat an entry") and "appears more than once" in description
    assert "=" not in description, "a model repr leaked into the description"


# --- date and date-time ------------------------------------------------------------------
DATE_TIMES = [("H2", "calledAt"), ("H3", "calledAt"), ("H5", "callingAt"), ("H6", "callingAt"), ("X1", "updatedFrom"), ("X1", "updatedTo")]


@pytest.mark.parametrize(("code", "field"), DATE_TIMES)
@pytest.mark.parametrize("value", ["2024-04-01T09:30:00Z", "2024-04-01T09:30:00+09:00", "2024-04-01T09:30:00.123-05:00"])
def test_date_time_with_offset_accepted(code: str, field: str, value: str) -> None:
    got = getattr(accepts(code, {field: value}), field)
    assert got.tzinfo is not None


@pytest.mark.parametrize(("code", "field"), DATE_TIMES)
@pytest.mark.parametrize(
    "value", ["2024-04-01T09:30:00", "2024-04-01", "1711931400", 1711931400, "2024-13-01T00:00:00Z", "yesterday"]
)
def test_date_time_without_offset_rejected(code: str, field: str, value: Any) -> None:
    exc = rejects(code, {field: value}, field, "INVALID_TYPE")
    assert "offset or Z" in detail(exc, field).description


@pytest.mark.parametrize("json", [False, True])
def test_date_time_same_in_json_and_python(json: bool) -> None:
    body = '{"answered": true, "calledAt": "%s"}'
    data = (lambda v: body % v) if json else (lambda v: {"answered": True, "calledAt": v})
    accepts("H2", data("2024-04-01T09:30:00+09:00"), json=json)
    rejects("H2", data("2024-04-01T09:30:00"), "calledAt", "INVALID_TYPE", json=json)
    rejects("H2", data("1711931400"), "calledAt", "INVALID_TYPE", json=json)


@pytest.mark.parametrize("value", ["2024-02-30", "2024-13-01", "2024/04/01", "20240401", "2024-04-01T00:00:00", 0])
def test_bad_date_reported_with_exact_path(value: Any) -> None:
    entry = {"briefHistoryDate": "2024-04-01", "briefHistoryText": "ok"}
    histories = [entry, entry, {"briefHistoryDate": value, "briefHistoryText": "bad"}]
    exc = rejects("U10", {"briefHistories": histories}, "briefHistories[2].briefHistoryDate", "INVALID_TYPE")
    assert [d.field for d in exc.details] == ["briefHistories[2].briefHistoryDate"]
    assert "year-month-day" in exc.details[0].description


def test_achievement_date_path() -> None:
    entries = [{"achievementHistoryDate": "2024-04-01", "achievementHistoryText": "x"}, {"achievementHistoryDate": "x", "achievementHistoryText": "y"}]
    rejects("U10", {"achievementHistories": entries}, "achievementHistories[1].achievementHistoryDate", "INVALID_TYPE")


# --- strict JSON types, unknown fields, enumerations ---------------------------------------
@pytest.mark.parametrize(
    ("code", "raw", "path"),
    [
        ("U2", '{"loginId": "taro", "fullname": "Taro", "level": "5"}', "level"),
        ("U2", '{"loginId": "taro", "fullname": "Taro", "level": 5.5}', "level"),
        ("U2", '{"loginId": "taro", "fullname": "Taro", "enabled": "true"}', "enabled"),
        ("U2", '{"loginId": "taro", "fullname": 5}', "fullname"),
        ("U2", '{"loginId": "taro", "fullname": "Taro", "divisionIds": ["1"]}', "divisionIds[0]"),
        ("U2", '{"loginId": "taro", "fullname": "Taro", "divisionIds": 1}', "divisionIds"),
        ("U2", '{"loginId": "taro", "fullname": "Taro", "sortScore": true}', "sortScore"),
        ("H2", '{"answered": "yes", "calledAt": "2024-04-01T09:30:00Z"}', "answered"),
        ("X2", '{"folderId": "SHARED/1", "fullname": "x"}', "folderId"),
        ("N1", '{"phoneNums": [312345678]}', "phoneNums[0]"),
    ],
)
def test_strict_json_types(code: str, raw: str, path: str) -> None:
    rejects(code, raw, path, "INVALID_TYPE", json=True)


def test_strict_json_accepts_well_typed_body() -> None:
    raw = (
        '{"loginId": "taro", "fullname": "Taro", "level": 5, "enabled": true, "userType": "REGULAR_USER",'
        ' "divisionIds": [1, 2], "roles": ["ADMIN_USER"], "spCallSettings": ["SETTING_10"], "groupware": "GWS"}'
    )
    model = accepts("U2", raw, json=True)
    assert model.body()["level"] == 5 and model.body()["spCallSettings"] == ["SETTING_10"]


def test_invalid_json_text() -> None:
    rejects("U2", "{not json", "", "INVALID_TYPE", json=True)


@pytest.mark.parametrize(
    ("code", "data", "path"),
    [
        ("U2", {"nickname": "x"}, "nickname"),
        ("U2", {"userId": 1}, "userId"),  # response only
        ("U2", {"divisions": []}, "divisions"),  # response form of divisionIds
        ("U2", {"chatSettingList": [{"chatSettingSeq": 1, "chatAccountId": "a", "clientName": "x"}]}, "chatSettingList[0].clientName"),
        ("D2", {"childDivisionIds": [1]}, "childDivisionIds"),
        ("D2", {"divisionId": 1}, "divisionId"),
        ("U10", {"selfUpdatedAt": "2024-04-01T00:00:00Z"}, "selfUpdatedAt"),
        ("U10", {"customColumns": [{"customColumnId": 1, "customColumnTitle": "t"}]}, "customColumns[0].customColumnTitle"),
        ("X2", {"contactId": 1}, "contactId"),
        ("X2", {"ocrStatus": "SENDING"}, "ocrStatus"),
        ("X2", {"folderId": {"directory": "SHARED", "folderNum": 1, "x": 1}}, "folderId.x"),
        ("H5", {"voicemail": {}}, "voicemail"),  # outgoing records have no voicemail
        ("U1", {"q": "x"}, "q"),
        ("X1", {"mail": "x"}, "mail"),
        ("U6", {"width": 10}, "width"),
    ],
)
def test_unknown_field(code: str, data: dict[str, Any], path: str) -> None:
    exc = rejects(code, data, path, "UNKNOWN_FIELD")
    assert detail(exc, path).description == "is not a field this operation takes"


@pytest.mark.parametrize(
    ("code", "data", "path"),
    [
        ("U2", {"userType": "ADMIN"}, "userType"),
        ("U2", {"roles": ["ADMIN_USER", "ROOT"]}, "roles[1]"),
        ("U2", {"spCallSettings": ["SETTING_11"]}, "spCallSettings[0]"),
        ("U2", {"forceRequestOperator": "ALWAYS"}, "forceRequestOperator"),
        ("U2", {"groupware": "NONE"}, "groupware"),  # NONE only appears in responses
        ("U2", {"userType": "regular_user"}, "userType"),
        ("X2", {"folderId": {"directory": "PUBLIC", "folderNum": 1}}, "folderId.directory"),
        ("U1", {"orderBy": "loginId"}, "orderBy"),
        ("U1", {"orderDirection": "ASC"}, "orderDirection"),
        ("U1", {"select": ["userId", "password"]}, "select[1]"),
        ("U1", {"userType": "X"}, "userType"),
        ("X1", {"select": ["contactId", "email"]}, "select[1]"),
        ("X1", {"orderBy": "companyName"}, "orderBy"),
        ("X1", {"directory": "ALL"}, "directory"),
        ("X1", {"ocrStatus": "DONE"}, "ocrStatus"),
        ("X1", {"ocrType": "HUMAN"}, "ocrType"),
        ("X1", {"ocrResult": "OK"}, "ocrResult"),
        ("X5", {"readerType": "HUMAN"}, "readerType"),
        ("X5", {"ocrLanguage": "FRENCH"}, "ocrLanguage"),
        ("U6", {"size": "SMALL"}, "size"),
        ("F1", {"directory": "X"}, "directory"),
        ("H1", {"orderDirection": "up"}, "orderDirection"),
    ],
)
def test_invalid_enum(code: str, data: dict[str, Any], path: str) -> None:
    exc = rejects(code, data, path, "INVALID_ENUM")
    description = detail(exc, path).description
    assert description.startswith("must be one of") or "not available" in description
    assert "<" not in description, "an enum repr leaked into the description"


def test_enum_description_lists_values() -> None:
    exc = rejects("U2", {"groupware": "NONE"}, "groupware", "INVALID_ENUM")
    assert detail(exc, "groupware").description == "must be one of 'M365' or 'GWS'"


# --- create-only fields ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "data", "path"),
    [
        ("U4", {"loginId": "taro"}, "loginId"),
        ("U4", {"loginId": "not valid anyway!"}, "loginId"),
        ("X3", {"folderId": {"directory": "SHARED", "folderNum": 1}}, "folderId"),
        ("X3", {"folderId": None}, "folderId"),
    ],
)
def test_not_editable(code: str, data: dict[str, Any], path: str) -> None:
    exc = rejects(code, data, path, "NOT_EDITABLE")
    assert detail(exc, path).description == "is accepted on create only"


# --- OMIT: a body holds only what was sent ------------------------------------------------
@pytest.mark.parametrize(
    ("code", "data"),
    [
        ("U4", {}),
        ("U4", {"fullname": "New Name"}),
        ("U4", {"comment": "", "level": 3}),
        ("D4", {"parentDivisionId": 0}),
        ("X3", {"headquartersLocation": {"zipCode": "100-0001"}}),
        ("U10", {"skills": []}),
        ("H3", {"note": ""}),
        ("P3", {"sortScore": 0}),
        ("U2", {"loginId": "taro", "fullname": "Taro"}),
    ],
)
def test_body_holds_only_sent_fields(code: str, data: dict[str, Any]) -> None:
    from corpdir.spec import validate_body

    model = validate_body(code, data)
    assert model.body() == data
    assert model.sent_fields() == set(data)


def test_omitted_is_not_none() -> None:
    from corpdir.spec import OMIT, validate_body

    model = validate_body("U4", {})
    assert model.fullname is OMIT and model.fullname is not None
    rejects("U4", {"fullname": None}, "fullname", "INVALID_TYPE")
