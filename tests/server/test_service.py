"""Service-wide behaviour: rate-limit headers, variants A and B, persistence, bootstrap, OpenAPI."""

from __future__ import annotations

import pytest

from corpdir.server.settings import RateLimitSettings
from corpdir.spec import OPERATIONS
from tests.server.conftest import client_for, error_of, jpeg, make_user

HEADERS = ("x-ratelimit-remaining", "x-ratelimit-requested-tokens", "x-ratelimit-burst-capacity", "x-ratelimit-replenish-rate")


async def test_rate_limit_headers_on_every_answer(make_app):
    app = make_app(rate_limit=RateLimitSettings(burst=60, rate=10))
    async with client_for(app) as api:
        answers = [
            await api.get("/users"), await api.get("/users/999"), await api.put("/users"), await api.get("/nowhere"),
            await api.post("/users", json={"bad": 1}), await api.get("/openapi.json"),
            await api.post("/phone-numbers/identify", json={"phoneNums": ["0312345678"]}),
        ]
        async with client_for(app, None) as anonymous:
            answers.append(await anonymous.get("/users"))
    for r in answers:
        assert all(h in r.headers for h in HEADERS), (r.status_code, r.headers)
        assert r.headers["x-ratelimit-burst-capacity"] == "60" and r.headers["x-ratelimit-replenish-rate"] == "10"
    assert [int(r.headers["x-ratelimit-remaining"]) for r in answers[:7]] == [59, 58, 57, 56, 55, 54, 44]
    assert answers[6].headers["x-ratelimit-requested-tokens"] == "10"


async def test_buckets_are_per_key(make_app):
    app = make_app(rate_limit=RateLimitSettings(burst=1, rate=0.5))
    other = app.state.storage.create_api_key(1, "second-key")
    async with client_for(app) as first, client_for(app, other) as second:
        assert (await first.get("/users")).status_code == 200
        assert (await first.get("/users")).status_code == 429
        assert (await second.get("/users")).status_code == 200


@pytest.mark.parametrize("variant, absent", [("A", ["U6", "X1", "F1", "N1", "L1"]), ("B", ["X3", "X4", "U11", "P1", "H1", "N1", "L1"])])
async def test_absent_operations_answer_not_found(make_app, variant, absent):
    app = make_app(variant=variant)
    async with client_for(app) as api:
        for code in absent:
            op = OPERATIONS[code]
            path = op.path.format(**{p: 1 for p in op.path_params})
            r = await api.request(op.method, path)
            assert r.status_code == 404, (code, r.status_code)
            assert error_of(r)["status"] == "NOT_FOUND"
        assert (await api.get("/users")).status_code == 200


async def test_variant_a_limits_and_fields(make_app):
    app = make_app(variant="A")
    async with client_for(app) as api:
        d = [(await api.post("/divisions", json={"divisionCode": f"D{i}", "divisionName": f"D{i}"})).json() for i in range(3)]
        assert "childDivisionIds" not in d[0]
        r = await api.post("/users", json={"loginId": "a:b", "fullname": "Colon", "divisionIds": [x["divisionId"] for x in d]})
        assert r.status_code == 400 and error_of(r)["details"][0] == {**error_of(r)["details"][0], "field": "divisionIds", "code": "TOO_MANY_ITEMS"}
        r = await api.post("/users", json={"loginId": "a:b", "fullname": "Colon", "groupware": "M365"})
        assert error_of(r)["details"][0]["code"] == "UNKNOWN_FIELD"
        user = (await api.post("/users", json={"loginId": "a:b", "fullname": "Colon"})).json()
        assert "contactDetailsUrl" not in user
        r = await api.post("/divisions", json={"divisionCode": "x" * 51, "divisionName": "Long"})
        assert error_of(r)["details"][0]["code"] == "TOO_LONG"
        r = await api.put("/users/1/photo", content=jpeg())
        assert r.status_code == 404  # U6-U8 are not in variant A
        r = await api.post("/users", json={"loginId": "big", "fullname": "Big", "comment": "x" * (17 * 1024 * 1024)})
        assert r.status_code == 400  # variant A has no 413: the same limit, in its words
        assert error_of(r)["details"] == [{"field": "body", "code": "TOO_LONG", "description": f"at most {16 * 1024 * 1024} bytes"}]


async def test_variant_b_limits(make_app):
    app = make_app(variant="B")
    async with client_for(app) as api:
        r = await api.post("/users", json={"loginId": "a:b", "fullname": "Colon"})
        assert error_of(r)["details"][0]["code"] == "PATTERN"
        r = await api.get("/users", params={"userType": "FACILITY"})
        assert error_of(r)["details"][0]["code"] == "UNKNOWN_FIELD"
        assert (await api.get("/users", params={"loginIds": ["admin"]})).status_code == 200
        r = await api.post("/users", json={"loginId": "sp", "fullname": "Sp", "spCallSettings": ["SETTING_6"]})
        assert error_of(r)["details"][0]["code"] == "INVALID_ENUM"
        profile = (await api.patch("/users/1/profile", json={"oneWord": "hi"})).json()
        assert "selfUpdatedAt" not in profile
        assert (await api.get("/folders")).status_code == 200


async def test_data_survives_a_restart(make_app, tmp_path):
    app = make_app(data=tmp_path)
    async with client_for(app) as api:
        await make_user(api, "persistent", fullname="永続 さん")
        await api.put("/users/2/photo", content=jpeg(), headers={"Content-Type": "image/jpeg"})
    app.state.storage.close()
    again = make_app(data=tmp_path, bootstrap_key="another")
    assert again.state.bootstrap_key is None  # not a fresh database: no second admin
    async with client_for(again) as api:
        found = (await api.get("/users", params={"freeWords": ["永続"]})).json()["items"]
        assert [u["loginId"] for u in found] == ["persistent"]
        assert (await api.get("/users/2/photo")).status_code == 200
    with again.state.storage.db.read() as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 1
    again.state.storage.close()


async def test_a_fresh_database_gets_one_admin_and_its_key(make_app, tmp_path):
    app = make_app(data=tmp_path / "new", bootstrap_key=None)
    key = app.state.bootstrap_key
    assert key and len(key) >= 20
    async with client_for(app, key) as api:
        users = (await api.get("/users")).json()["items"]
    assert [(u["loginId"], u["roles"]) for u in users] == [("admin", ["ADMIN_COMPANY"])]
    app.state.storage.close()


async def test_served_under_the_v1_prefix_too(api):
    assert (await api.get("/v1/users")).status_code == 200


async def test_openapi_documents_the_served_operations(api, make_app):
    doc = (await api.get("/openapi.json")).json()
    codes = {entry["operationId"] for methods in doc["paths"].values() for entry in methods.values()}
    assert codes == set(OPERATIONS) and len(codes) == 36
    assert doc["paths"]["/users"]["get"]["parameters"][0]["name"] == "page"
    async with client_for(make_app(variant="A")) as a:
        doc_a = (await a.get("/openapi.json")).json()
    assert len({e["operationId"] for m in doc_a["paths"].values() for e in m.values()}) == 10
