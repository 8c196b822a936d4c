"""Local validation (same details as the server, no request) and partial edits (bodies
recorded at the server)."""

from __future__ import annotations

import json

import httpx
import pytest

from corpdir.client import Invalid, diff
from corpdir.spec import SpecViolation, validate_body
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
    with pytest.raises(ValueError, match="level cannot be cleared"):
        diff(original, {"level": None}, UserEdit)


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
