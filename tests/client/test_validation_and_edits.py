"""Local validation (same details as the server, no request) and partial edits (bodies
recorded at the server)."""

from __future__ import annotations

import json

import httpx
import pytest

from corpdir.client import Invalid, diff
from corpdir.spec import SpecViolation, validate_body
from corpdir.spec.edits import CannotClear
from corpdir.spec.user import User, UserEdit


async def test_bad_body_fails_locally_with_the_servers_details(server, make_client):
    c = make_client(httpx.ASGITransport(app=server))
    bad = {"loginId": "x y", "fullname": "  ", "level": 11, "extensionNum": "12a"}
    with pytest.raises(Invalid) as info:
        await c.create_user(bad)
    assert info.value.local and server.seen == []
    local = {(d.field, d.code) for d in info.value.details}
    assert local == {("loginId", "PATTERN"), ("fullname", "BLANK"), ("level", "OUT_OF_RANGE"), ("extensionNum", "PATTERN")}
    # the same body sent raw to the server gets the same details
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=server), base_url="http://127.0.0.1/v1") as raw:
        answer = await raw.post("/users", json=bad, headers={"Authorization": "Bearer sk-test"})
    assert answer.status_code == 400
    assert {(d["field"], d["code"]) for d in answer.json()["error"]["details"]} == local


async def test_bad_query_and_path_fail_locally(server, make_client):
    c = make_client(httpx.ASGITransport(app=server))
    with pytest.raises(Invalid) as info:
        await c.list_users(pageSize=101, orderBy="age")
    assert {(d.field, d.code) for d in info.value.details} == {("pageSize", "OUT_OF_RANGE"), ("orderBy", "INVALID_ENUM")}
    with pytest.raises(Invalid):
        await c.list_contacts(page=20)
    with pytest.raises(Invalid):
        await c.get_user("3")  # type: ignore[arg-type]
    with pytest.raises(Invalid):
        await c.get_photo(1, "HUGE")
    with pytest.raises(Invalid):
        await c.put_photo(1, b"")
    assert server.seen == []
    assert "checked before sending" in str(info.value)


async def test_variant_rules_apply_locally(server, make_client):
    b = make_client(httpx.ASGITransport(app=server), variant="B")
    with pytest.raises(Invalid) as info:
        await b.edit_user(2, {"divisionIds": [1, 2, 3]})
    assert [(d.field, d.code) for d in info.value.details] == [("divisionIds", "TOO_MANY_ITEMS")]
    assert server.seen == []


def test_diff_sends_only_changes_and_clears_with_empty_string():
    original = User(userId=7, fullname="Taro", comment="old", position="Boss", level=5,
                    divisions=[{"divisionId": 1, "divisionName": "HQ"}], skill=None)
    edited = original.model_copy(update={"comment": None, "position": "Chief", "skill": None})
    assert diff(original, edited, UserEdit) == {"comment": "", "position": "Chief"}
    # a mapping of the touched form fields; response shapes compared in request form
    assert diff(original, {"fullname": "Taro", "divisionIds": [1, 2], "remarks": ""}, UserEdit) == {"divisionIds": [1, 2]}
    assert diff(original, {"divisions": []}, UserEdit) == {"divisionIds": []}
    with pytest.raises(CannotClear) as cleared:
        diff(original, {"level": None}, UserEdit)
    assert cleared.value.field == "level"  # named by the error, not parsed back from its text


async def test_edit_with_original_and_edited_sends_the_difference(server, make_client):
    c = make_client(httpx.ASGITransport(app=server))
    loaded = await c.get_user(2)
    assert loaded.comment == "hello"
    form = loaded.model_copy(update={"comment": "", "position": "Reception"})
    saved = await c.edit_user(2, original=loaded, edited=form)
    assert json.loads(server.last("PATCH").body) == {"comment": "", "position": "Reception"}
    assert saved.comment == "" and saved.position == "Reception"
    # a changes mapping: None means "not given"
    await c.edit_user(2, {"post": "Desk", "skill": None})
    assert json.loads(server.last("PATCH").body) == {"post": "Desk"}
    # nothing changed: an empty body (the service changes nothing)
    again = await c.get_user(2)
    await c.edit_user(2, original=again, edited=again)
    assert json.loads(server.last("PATCH").body) == {}


async def test_edit_with_original_checks_user_type_rules_locally(server, make_client):
    c = make_client(httpx.ASGITransport(app=server))
    facility = await c.create_user(loginId="room1", fullname="Room 1", userType="FACILITY")
    before = len(server.seen)
    with pytest.raises(Invalid) as info:
        await c.edit_user(facility.userId, original=facility, edited={"roles": ["ADMIN_USER"]})
    assert info.value.details[0].code == "NOT_SETTABLE_FOR_USER_TYPE" and len(server.seen) == before
    # and the server, asked directly, says the same
    with pytest.raises(SpecViolation) as direct:
        validate_body("U4", {"roles": ["ADMIN_USER"]}, context={"user_type": "FACILITY"})
    assert direct.value.details == info.value.details


async def test_omit_and_none_leave_a_field_out_and_empty_text_clears_it(server, make_client):
    """OMIT (re-exported by corpdir.client) and None both mean "not given", in edits and in
    creates, in mappings, keyword fields and models; '' is a value: it clears the text."""
    from corpdir.client import OMIT
    from corpdir.spec.user import UserCreate

    c = make_client(httpx.ASGITransport(app=server))
    await c.edit_user(2, {"comment": OMIT, "post": "Desk", "skill": None})
    assert json.loads(server.last("PATCH").body) == {"post": "Desk"}
    await c.edit_user(2, UserEdit(remarks=""))  # a model: fields left out are OMIT
    assert json.loads(server.last("PATCH").body) == {"remarks": ""}
    await c.edit_user(2, {"comment": ""})
    assert json.loads(server.last("PATCH").body) == {"comment": ""}
    assert (await c.get_user(2)).comment == ""
    created = await c.create_user(loginId="omit.me", fullname="Omit Me", comment=None, position=OMIT)
    assert json.loads(server.last("POST").body) == {"loginId": "omit.me", "fullname": "Omit Me"}
    assert created.comment is None or created.comment == ""
    await c.create_user(UserCreate(loginId="omit.too", fullname="Omit Too"), post=OMIT)
    assert json.loads(server.last("POST").body) == {"loginId": "omit.too", "fullname": "Omit Too"}
    page = await c.list_users(fullname=None, loginIds=["omit.me"], userType=OMIT)
    assert [u.loginId for u in page.items] == ["omit.me"] and "fullname" not in server.seen[-1].path
    # a required field given as None is missing, as the service would say
    with pytest.raises(Invalid) as info:
        await c.create_user(loginId=None, fullname="No Login")
    assert [(d.field, d.code) for d in info.value.details] == [("loginId", "REQUIRED")]


async def test_single_entries_are_not_split_into_characters_or_keys(server, make_client):
    c = make_client(httpx.ASGITransport(app=server))
    await c.identify_numbers("0312345678")
    assert json.loads(server.last("POST").body) == {"phoneNums": ["0312345678"]}
    with pytest.raises(Invalid) as info:
        await c.edit_destinations({"loginId": "user00000"})
    assert [d.field for d in info.value.details] == ["destinations[0].destinationId"]


async def test_ids_that_are_no_int64_fail_locally(server, make_client):
    from corpdir.client import NotFound

    c = make_client(httpx.ASGITransport(app=server))
    for bad in (2**63, -(2**63) - 1, 2**70):  # ids are int64: no record can have these
        with pytest.raises(NotFound, match="outside int64") as info:
            await c.get_user(bad)
        assert info.value.local and "checked before sending" in str(info.value)
    for bad in (3.0, None, "3", True):
        with pytest.raises(Invalid, match="must be an integer id"):
            await c.get_user(bad)  # type: ignore[arg-type]
    assert server.seen == []
    with pytest.raises(NotFound) as info:  # the largest int64 is asked for, and does not exist
        await c.get_user(2**63 - 1)
    assert not info.value.local and len(server.seen) == 1
    with pytest.raises(ValueError, match="not a list operation"):
        async for _ in c.iter_pages("get_user"):
            pass


DIFFERENTIAL = [
    ("U1", "query", {"pageSize": 0, "orderDirection": "up", "freeWords": ["x" * 51]}),
    ("U1", "query", {"select": ["userId", "password"], "divisionIds": list(range(51))}),
    ("X1", "query", {"page": 20, "pageSize": 501, "folderNums": list(range(11))}),
    ("X1", "query", {"updatedFrom": "yesterday", "directory": "PUBLIC", "email": "x" * 257}),
    ("D1", "query", {"divisionCodes": ["bad code!"], "pageSize": 101}),
    ("H1", "query", {"pageSize": 21, "orderDirection": "sideways"}),
    ("U2", "body", {"loginId": "ok", "fullname": "A", "divisionIds": list(range(11)), "webUrl": "ftp://x", "level": 0}),
    ("U2", "body", {"fullname": "A", "mobileMacAddress": "zz:zz", "roles": ["ADMIN_USER", "ADMIN_USER"], "surprise": 1}),
    ("U10", "body", {"skills": [" "], "externalLinks": [{}] * 4, "oneWord": "x" * 281}),
    ("X2", "body", {"folderId": {"directory": "NOPE", "folderNum": 0}, "fullname": "", "companyUrl": "www.x"}),
    ("N1", "body", {"phoneNums": ["12a", ""]}),
    ("H2", "body", {"fromNum": "", "answered": "yes", "calledAt": "yesterday", "duration": -1}),
    ("P2", "body", {"folderName": " ", "sortScore": -1}),
    ("L1", "body", {"locations": []}),
    ("U11", "body", {"destinations": [{"loginId": "a"}]}),
    ("D2", "body", {"divisionCode": "x" * 101, "divisionName": "n", "parentDivisionId": 0}),
]


@pytest.mark.parametrize("code,kind,payload", DIFFERENTIAL, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(DIFFERENTIAL)])
async def test_local_validation_gives_exactly_the_servers_details(code, kind, payload, server, make_client):
    """The same bad input, checked by the client (no request) and sent raw to the server."""
    from corpdir.client import RoutingProfile

    c = make_client(httpx.ASGITransport(app=server))
    with pytest.raises(Invalid) as info:
        await c._call(code, query=payload) if kind == "query" else await c._call(code, body=payload)
    assert info.value.local and server.seen == []
    local = sorted((d.field, d.code) for d in info.value.details)
    route = RoutingProfile.default().route(code)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=server), base_url="http://127.0.0.1/v1") as raw:
        answer = await raw.request(
            route.method, route.path, headers={"Authorization": "Bearer sk-test"},
            params=RoutingProfile.default().encode_query(payload) if kind == "query" else None,
            json=payload if kind == "body" else None,
        )
    assert answer.status_code == 400, answer.text
    remote = sorted((d["field"], d["code"]) for d in answer.json()["error"]["details"])
    assert local == remote
