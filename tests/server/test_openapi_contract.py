"""/openapi.json states the rules the server enforces, generated from
corpdir.spec in the served variant's form; and the odd requests schemathesis found answer
as the schema says."""

from __future__ import annotations

import re

import pytest

from tests.server.conftest import client_for, error_of


async def _openapi(make_app, variant: str = "C") -> dict:
    async with client_for(make_app(variant=variant)) as api:
        r = await api.get("/openapi.json")
        assert r.status_code == 200
        return r.json()


def _body(doc: dict, path: str, method: str) -> dict:
    ref = doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return doc["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _query(doc: dict, path: str, name: str) -> dict:
    return next(p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == name)["schema"]


async def test_character_sets_lengths_and_uniqueness_are_published(make_app):
    doc = await _openapi(make_app)
    user = _body(doc, "/users", "post")["properties"]
    phone = re.compile(user["phoneNum"]["pattern"])
    assert phone.search("03-1234-5678") and not phone.search("03 1234")
    assert user["loginId"]["pattern"] == "^[@A-Za-z0-9.!#$%&'*+/=?^_`{}~|\\-]+$"
    assert user["divisionIds"]["maxItems"] == 10 and "uniqueItems" not in user["divisionIds"]
    assert user["roles"]["uniqueItems"] is True
    assert re.search(user["fullname"]["pattern"], "  x ") and not re.search(user["fullname"]["pattern"], "   ")
    assert not re.match(user["webUrl"]["pattern"], "ftp://x")
    division = _body(doc, "/divisions", "post")["properties"]["divisionCode"]
    assert division["maxLength"] == 100 and re.match(division["pattern"], "A-1_(x)")
    assert _body(doc, "/users/{userId}", "patch")["properties"]["loginId"]["not"] == {}  # create only
    assert _query(doc, "/users", "freeWords")["items"]["pattern"] == "^[^\\x00]*$"
    assert _query(doc, "/users", "page") == {"default": 0, "maximum": 2**31 - 1, "minimum": 0, "title": "Page", "type": "integer"}
    called_at = _body(doc, "/me/incoming-calls", "post")["properties"]["calledAt"]
    assert called_at["format"] == "date-time" and not re.match(called_at["pattern"], "0120-01-09T00:00:00Z")


async def test_the_user_type_table_is_published(make_app):
    rules = _body(await _openapi(make_app), "/users", "post")["allOf"]
    facility = next(r for r in rules if r["if"]["properties"]["userType"]["const"] == "FACILITY")
    assert facility["then"]["properties"]["password"] is False and "fullname" not in facility["then"]["properties"]


async def test_each_variant_publishes_its_own_limits(make_app):
    doc = await _openapi(make_app, "B")
    user = _body(doc, "/users", "post")["properties"]
    assert user["divisionIds"]["maxItems"] == 2 and user["divisionIds"]["uniqueItems"] is True
    assert user["groupware"] == {"not": {}, "title": "Groupware"}
    assert _body(doc, "/divisions", "post")["properties"]["divisionCode"]["maxLength"] == 50
    assert "userType" not in [p["name"] for p in doc["paths"]["/users"]["get"]["parameters"]]
    assert "/locations/spots" not in doc["paths"]


async def test_a_literal_path_is_not_taken_for_a_parameter(api):
    r = await api.patch("/contacts/business-cards", json={})
    assert r.status_code == 405 and r.headers["allow"] == "POST"


@pytest.mark.parametrize("value, accepted", [(7.0, True), (7.5, False), ("7", False), (True, False)])
async def test_a_json_number_with_no_fraction_is_an_integer(api, value, accepted):
    r = await api.post("/users", json={"loginId": "n", "fullname": "N", "sortScore": value})
    if accepted:
        assert r.status_code == 201 and r.json()["sortScore"] == 7
    else:
        assert r.status_code == 400 and error_of(r)["details"][0]["field"] == "sortScore"


async def test_no_rate_limit_also_lifts_the_spots_window(make_app):
    from corpdir.server.settings import RateLimitSettings

    body = {"locations": [{"bleId": "b", "spotId": "s"}]}
    async with client_for(make_app(rate_limit=RateLimitSettings(enabled=False, spots_window=False))) as api:
        assert [(await api.post("/locations/spots", json=body)).status_code for _ in range(3)] == [200] * 3
