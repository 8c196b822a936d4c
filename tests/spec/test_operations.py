"""The operation table against http-contract.md's routes table (copied here as the expectation)."""

from __future__ import annotations

import re

import pytest

from corpdir.spec import BY_NAME, OPERATIONS, Page
from corpdir.spec.operations import Operation

# http-contract.md, "Routes (default profile)": code, method, path, success status.
ROUTES = """
U1 GET /users 200
U2 POST /users 201
U3 GET /users/{userId} 200
U4 PATCH /users/{userId} 200
U5 DELETE /users/{userId} 204
U6 GET /users/{userId}/photo 200
U7 PUT /users/{userId}/photo 204
U8 DELETE /users/{userId}/photo 204
U9 GET /users/{userId}/profile 200
U10 PATCH /users/{userId}/profile 200
U11 PATCH /destinations 200
D1 GET /divisions 200
D2 POST /divisions 201
D3 GET /divisions/{divisionId} 200
D4 PATCH /divisions/{divisionId} 200
D5 DELETE /divisions/{divisionId} 204
X1 GET /contacts 200
X2 POST /contacts 201
X3 PATCH /contacts/{contactId} 200
X4 DELETE /contacts/{contactId} 204
X5 POST /contacts/business-cards 201
X6 GET /contacts/{contactId}/business-card 200
X7 PUT /contacts/{contactId}/business-card 204
X8 DELETE /contacts/{contactId}/business-card 204
F1 GET /folders 200
P1 GET /personal-folders 200
P2 POST /personal-folders 201
P3 PATCH /personal-folders/{folderNum} 200
N1 POST /phone-numbers/identify 200
H1 GET /me/incoming-calls 200
H2 POST /me/incoming-calls 201
H3 PATCH /me/incoming-calls/{incomingCallHistoryId} 200
H4 GET /me/outgoing-calls 200
H5 POST /me/outgoing-calls 201
H6 PATCH /me/outgoing-calls/{outgoingCallHistoryId} 200
L1 POST /locations/spots 200
"""
EXPECTED = {code: (method, path, int(success)) for code, method, path, success in (l.split() for l in ROUTES.strip().splitlines())}

LISTS = {"U1", "D1", "X1", "F1", "P1", "H1", "H4"}
JSON_BODIES = {"U2", "U4", "U10", "U11", "D2", "D4", "X2", "X3", "P2", "P3", "N1", "H2", "H3", "H5", "H6", "L1"}
JPEG_UPLOADS = {"U7", "X7"}
JPEG_DOWNLOADS = {"U6", "X6"}
QUERIES = LISTS | {"U6", "X5"}  # X5's form fields are validated like a query
# spec section 5 item 3 (and 4.1's permission column)
USER_MANAGEMENT = {"U2", "U4", "U5", "U7", "U8", "U11"}
DIVISION_MANAGEMENT = {"D2", "D4", "D5"}
FOLDER_VIEW = {"X1", "X6"}
FOLDER_EDIT = {"X2", "X3", "X4", "X7", "X8"}


def test_36_codes() -> None:
    assert len(EXPECTED) == 36
    assert set(OPERATIONS) == set(EXPECTED)


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_route(code: str) -> None:
    op = OPERATIONS[code]
    assert (op.method, op.path, op.success) == EXPECTED[code]
    assert op.code == code


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_path_params(code: str) -> None:
    op = OPERATIONS[code]
    assert op.path_params == tuple(re.findall(r"\{(\w+)\}", EXPECTED[code][1]))
    assert set(op.path_params) <= {"userId", "divisionId", "contactId", "folderNum", "incomingCallHistoryId", "outgoingCallHistoryId"}


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_write_flag(code: str) -> None:
    # N1 is the one POST that only reads (the numbers travel in the body)
    assert OPERATIONS[code].is_write is (EXPECTED[code][0] != "GET" and code != "N1")
    assert OPERATIONS[code].reads_only is (code == "N1")


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_body_kind(code: str) -> None:
    op = OPERATIONS[code]
    if code in JSON_BODIES:
        assert op.body_kind == "json" and op.body is not None
    elif code in JPEG_UPLOADS:
        assert op.body_kind == "jpeg" and op.body is None
    elif code == "X5":
        assert op.body_kind == "multipart" and op.query is not None
    else:
        assert op.body_kind is None and op.body is None


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_response_kind(code: str) -> None:
    op = OPERATIONS[code]
    assert op.is_list is (code in LISTS)
    if code in LISTS:
        assert issubclass(op.response, Page)
    if code in JPEG_DOWNLOADS:
        assert op.response == "jpeg"
    if EXPECTED[code][2] == 204:
        assert op.response is None, "a 204 answer has no body"


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_query_models(code: str) -> None:
    assert (OPERATIONS[code].query is not None) is (code in QUERIES)


def test_h1_and_h4_share_the_call_query() -> None:
    assert OPERATIONS["H1"].query is OPERATIONS["H4"].query


def test_client_method_names_unique() -> None:
    names = [op.name for op in OPERATIONS.values()]
    assert len(names) == len(set(names)) == 36
    assert all(re.fullmatch(r"[a-z][a-z_]*", n) for n in names)
    assert {n: op.code for n, op in BY_NAME.items()} == {op.name: op.code for op in OPERATIONS.values()}


def test_write_operations() -> None:
    writes = {code for code, op in OPERATIONS.items() if op.is_write}
    assert writes == {c for c, (m, _, _) in EXPECTED.items() if m in ("POST", "PUT", "PATCH", "DELETE")} - {"N1"}
    assert len(writes) == 23  # 9 POST (less N1, which only reads), 2 PUT, 8 PATCH, 5 DELETE


@pytest.mark.parametrize(
    ("group", "permission"),
    [(USER_MANAGEMENT, "USER_MANAGEMENT"), (DIVISION_MANAGEMENT, "DIVISION_MANAGEMENT"),
     (FOLDER_VIEW, "FOLDER_VIEW"), (FOLDER_EDIT, "FOLDER_EDIT"), ({"L1"}, "LOCATION_ADMIN"),
     ({"U10"}, "OWN_PROFILE_OR_USER_MANAGEMENT")],
)
def test_permissions(group: set[str], permission: str) -> None:
    assert {code for code, op in OPERATIONS.items() if op.permission.name == permission} == group


def test_call_histories_are_own_records() -> None:
    for code in ("H1", "H2", "H3", "H4", "H5", "H6"):
        assert OPERATIONS[code].permission.name == "OWN_RECORDS"


def test_tokens() -> None:
    """http-contract.md: 10 tokens for U11, L1, N1 and X5, 1 for the rest."""
    assert {code for code, op in OPERATIONS.items() if op.tokens == 10} == {"U11", "L1", "N1", "X5"}
    assert all(op.tokens in (1, 10) for op in OPERATIONS.values())


def test_operation_is_frozen() -> None:
    op: Operation = OPERATIONS["U1"]
    with pytest.raises(AttributeError):
        op.path = "/x"  # type: ignore[misc]
