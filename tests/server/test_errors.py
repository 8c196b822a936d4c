"""Every row of spec section 7 the server can produce, provoked, with the body checked."""

from __future__ import annotations

import pytest

from corpdir.server.settings import MIB, RateLimitSettings
from tests.server.conftest import client_for, error_of, jpeg, make_user, png

USER = {"loginId": "ok", "fullname": "Ok"}


@pytest.mark.parametrize("body, field, code", [
    ({**USER, "nickname": "x"}, "nickname", "UNKNOWN_FIELD"),
    ({**USER, "level": "5"}, "level", "INVALID_TYPE"),
    ({**USER, "fullname": "x" * 51}, "fullname", "TOO_LONG"),
    ({**USER, "phoneNum": "03 1234"}, "phoneNum", "PATTERN"),
    ({**USER, "level": 11}, "level", "OUT_OF_RANGE"),
    ({**USER, "divisionIds": list(range(1, 12))}, "divisionIds", "TOO_MANY_ITEMS"),
    ({**USER, "roles": ["ADMIN_EVERYTHING"]}, "roles[0]", "INVALID_ENUM"),
    ({"fullname": "No login"}, "loginId", "REQUIRED"),
    ({**USER, "fullname": "   "}, "fullname", "BLANK"),
    ({**USER, "roles": ["ADMIN_USER", "ADMIN_USER"]}, "roles", "NOT_UNIQUE"),
])
async def test_bad_user_bodies_are_invalid_argument_with_the_field_and_code(api, body, field, code):
    r = await api.post("/users", json=body)
    assert r.status_code == 400
    error = error_of(r)
    assert error["status"] == "INVALID_ARGUMENT"
    assert {"field": field, "code": code} in [{"field": d["field"], "code": d["code"]} for d in error["details"]]
    assert (await api.get("/users", params={"loginIds": ["ok"]})).json()["items"] == []  # nothing written


async def test_bad_date_in_a_nested_field(api):
    r = await api.patch("/users/1/profile", json={"briefHistories": [{"briefHistoryDate": "2020-13-45", "briefHistoryText": "x"}]})
    assert r.status_code == 400
    assert error_of(r)["details"][0]["field"] == "briefHistories[0].briefHistoryDate"


async def test_malformed_json(api):
    r = await api.post("/users", content=b'{"loginId": "x",', headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and error_of(r)["status"] == "INVALID_ARGUMENT"


async def test_bad_query_parameters(api):
    r = await api.get("/users", params={"pageSize": 101})
    assert r.status_code == 400 and error_of(r)["details"][0] == {"field": "pageSize", "code": "OUT_OF_RANGE", "description": "must be 100 or less"}
    r = await api.get("/users", params={"select": ["password"]})
    assert error_of(r)["details"][0]["code"] == "INVALID_ENUM"
    r = await api.get("/users", params={"freeWords": [str(i) for i in range(11)]})
    assert error_of(r)["details"][0]["code"] == "TOO_MANY_ITEMS"
    r = await api.get("/users", params={"shoeSize": 42})
    assert error_of(r)["details"][0]["code"] == "UNKNOWN_FIELD"
    r = await api.get("/users/abc")
    assert r.status_code == 400 and error_of(r)["details"][0]["field"] == "userId"


async def test_unauthenticated(app):
    for key in (None, "wrong-key"):
        async with client_for(app, key) as client:
            r = await client.get("/users")
        assert r.status_code == 401 and error_of(r)["status"] == "UNAUTHENTICATED"


async def test_x_api_key_header_is_accepted(app):
    async with client_for(app, None, headers={"X-API-Key": "admin-key"}) as client:
        assert (await client.get("/users")).status_code == 200


async def test_disabled_user_is_unauthenticated(app, api, keys):
    await api.patch(f"/users/{keys['reception_id']}", json={"enabled": False})
    async with client_for(app, keys["reception"]) as client:
        assert (await client.get("/users")).status_code == 401


async def test_user_without_api_permission_is_denied_everything(app, keys):
    async with client_for(app, keys["noapi"]) as client:
        for method, path in (("GET", "/users"), ("GET", "/divisions/1"), ("POST", "/phone-numbers/identify")):
            r = await client.request(method, path, json={"phoneNums": ["1"]} if method == "POST" else None)
            assert r.status_code == 403 and error_of(r)["status"] == "API_PERMISSION_DENIED"


async def test_caller_address_outside_the_allow_list(make_app):
    app = make_app(allowed_networks=["10.0.0.0/8"])
    async with client_for(app) as client:  # the ASGI transport calls from 127.0.0.1
        r = await client.get("/users")
    assert r.status_code == 403 and error_of(r)["status"] == "ACCESS_DENIED"
    app = make_app(allowed_networks=["127.0.0.0/8"])
    async with client_for(app) as client:
        assert (await client.get("/users")).status_code == 200


async def test_not_found_and_method_not_allowed(api):
    r = await api.get("/users/424242")
    assert r.status_code == 404 and error_of(r)["status"] == "NOT_FOUND"
    assert (await api.get("/no/such/path")).status_code == 404
    # ids no record can have (beyond int64): still 404, never a storage overflow (500)
    for path in ("/users/9223372036854775808", "/divisions/99999999999999999999", "/users/-9223372036854775809/profile"):
        r = await api.get(path)
        assert r.status_code == 404 and error_of(r)["status"] == "NOT_FOUND", (path, r.text)
    # a path holding a newline (which Starlette's catch-all does not match) is answered as any other path
    r = await api.request("DELETE", "/no/such%0Apath")
    assert r.status_code == 404 and error_of(r)["status"] == "NOT_FOUND", r.text
    r = await api.request("DELETE", "/contacts/%0A%C3%89%04/business-card")
    assert r.status_code == 400 and error_of(r)["details"][0]["code"] == "INVALID_TYPE", r.text
    r = await api.put("/users")
    assert r.status_code == 405 and error_of(r)["status"] == "METHOD_NOT_ALLOWED"
    assert set(r.headers["allow"].split(", ")) == {"GET", "POST"}


async def test_not_acceptable(api):
    r = await api.get("/users", headers={"Accept": "text/html"})
    assert r.status_code == 406 and error_of(r)["status"] == "NOT_ACCEPTABLE"
    user = await make_user(api, "photo406")
    await api.put(f"/users/{user['userId']}/photo", content=jpeg(), headers={"Content-Type": "image/jpeg"})
    assert (await api.get(f"/users/{user['userId']}/photo", headers={"Accept": "application/json"})).status_code == 406
    assert (await api.get("/users", headers={"Accept": "application/json, text/html;q=0.5"})).status_code == 200
    assert (await api.get("/users", headers={"Accept": "*/*"})).status_code == 200


async def test_too_large_bodies(make_app):
    app = make_app(max_image_bytes=1024, max_json_bytes=2048)
    async with client_for(app) as api:
        r = await api.put("/users/1/photo", content=jpeg(600, 600, "white") + b"\0" * 2048, headers={"Content-Type": "image/jpeg"})
        assert r.status_code == 413 and error_of(r)["status"] == "PAYLOAD_TOO_LARGE"
        r = await api.post("/users", json={**USER, "comment": "x" * 3000})
        assert r.status_code == 413
        assert (await api.get("/users", params={"loginIds": ["ok"]})).json()["items"] == []


async def test_default_limits_are_ten_and_sixteen_mib(app, api):
    assert app.state.settings.max_image_bytes == 10 * MIB and app.state.settings.max_json_bytes == 16 * MIB
    r = await api.put("/users/1/photo", content=b"\xff\xd8\xff" + b"\0" * (10 * MIB), headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 413


async def test_unsupported_media_type(api):
    r = await api.put("/users/1/photo", content=png(), headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 415 and error_of(r)["status"] == "UNSUPPORTED_MEDIA_TYPE"
    r = await api.post("/users", content=b"loginId=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415


async def test_already_exists(api):
    await make_user(api, "twice")
    r = await api.post("/users", json={"loginId": "twice", "fullname": "Again"})
    assert r.status_code == 409 and error_of(r)["status"] == "ALREADY_EXISTS"


async def test_unprocessable(api):
    r = await api.post("/users", json={**USER, "divisionIds": [999]})
    assert r.status_code == 422 and error_of(r)["status"] == "UNPROCESSABLE"
    assert error_of(r)["details"][0]["field"] == "divisionIds"
    r = await api.post("/users", json={**USER, "tenantCucmAdapterSettingsId": 5})
    assert r.status_code == 422


async def test_resource_exhausted(make_app, clock):
    app = make_app(rate_limit=RateLimitSettings(burst=12, rate=1))
    async with client_for(app) as api:
        assert (await api.post("/phone-numbers/identify", json={"phoneNums": ["1"]})).status_code == 200  # 10 tokens
        r = await api.post("/phone-numbers/identify", json={"phoneNums": ["1"]})
        assert r.status_code == 429
        assert r.json() == {"error": {"status": "RESOURCE_EXHAUSTED", "message": r.json()["error"]["message"], "details": []}}
        assert r.headers["retry-after"] == "8"
        assert (await api.get("/users")).status_code == 200  # 1 token still affordable
        clock.advance(9)
        assert (await api.post("/phone-numbers/identify", json={"phoneNums": ["1"]})).status_code == 200


async def test_internal_error_is_an_error_object_without_traceback(app, api, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(app.state.storage, "list_user_ids", boom)
    r = await api.get("/users")
    assert r.status_code == 500
    assert error_of(r)["status"] == "INTERNAL_SERVER_ERROR" and "secret" not in r.text and "Traceback" not in r.text
    assert "x-ratelimit-remaining" in r.headers


async def test_a_failed_write_leaves_nothing_behind(api):
    await api.post("/divisions", json={"divisionCode": "KEEP", "divisionName": "Keep"})
    r = await api.post("/users", json={**USER, "divisionIds": [1, 999]})
    assert r.status_code == 422
    assert (await api.get("/users", params={"loginIds": ["ok"]})).json()["items"] == []
