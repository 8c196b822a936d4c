"""Users (U1-U5): create defaults, partial edits, duplicates, search and ordering, field ranges."""

from __future__ import annotations

import pytest

from tests.server.conftest import error_of, jpeg, make_user


async def test_create_applies_spec_defaults_and_never_returns_the_password(api):
    r = await api.post("/users", json={"loginId": "yamada", "fullname": "山田 太郎", "password": "s3cret!"})
    assert r.status_code == 201
    user = r.json()
    assert user["level"] == 5
    assert user["initialPasswordForceChange"] is False
    assert user["forceRequestOperator"] == "DISABLE"
    assert "password" not in user
    assert (await api.get(f"/users/{user['userId']}")).json() == user


async def test_password_is_stored_as_a_salted_scrypt_hash(app, api):
    user = await make_user(api, "hashme", password="hunter22")
    with app.state.storage.db.read() as conn:
        stored = conn.execute("SELECT password_hash FROM users WHERE id = ?", (user["userId"],)).fetchone()[0]
    assert stored.startswith("scrypt$") and "hunter22" not in stored


async def test_partial_edit_changes_only_the_fields_sent(api):
    user = await make_user(api, "edit", fullname="Before", phoneNum="0311112222", comment="keep me")
    r = await api.patch(f"/users/{user['userId']}", json={"fullname": "After"})
    assert r.status_code == 200
    edited = r.json()
    assert edited["fullname"] == "After"
    assert edited["phoneNum"] == "0311112222" and edited["comment"] == "keep me"


async def test_login_id_cannot_be_edited(api):
    user = await make_user(api, "fixed")
    r = await api.patch(f"/users/{user['userId']}", json={"loginId": "other"})
    assert r.status_code == 400
    assert error_of(r)["details"][0] == {"field": "loginId", "code": "NOT_EDITABLE", "description": "is accepted on create only"}


async def test_duplicate_login_id_is_already_exists(api):
    await make_user(api, "dup")
    r = await api.post("/users", json={"loginId": "dup", "fullname": "Again"})
    assert r.status_code == 409
    assert error_of(r)["status"] == "ALREADY_EXISTS"


async def test_field_not_settable_for_the_stored_user_type(api):
    room = await make_user(api, "room1", userType="FACILITY")
    r = await api.patch(f"/users/{room['userId']}", json={"roles": ["ADMIN_USER"]})
    assert r.status_code == 400
    assert error_of(r)["details"][0]["code"] == "NOT_SETTABLE_FOR_USER_TYPE"


async def test_delete_user_deletes_the_photo(api):
    user = await make_user(api, "gone")
    assert (await api.put(f"/users/{user['userId']}/photo", content=jpeg(), headers={"Content-Type": "image/jpeg"})).status_code == 204
    assert (await api.delete(f"/users/{user['userId']}")).status_code == 204
    assert (await api.get(f"/users/{user['userId']}")).status_code == 404
    assert (await api.get(f"/users/{user['userId']}/photo")).status_code == 404


@pytest.fixture
async def people(api):
    d1 = (await api.post("/divisions", json={"divisionCode": "SALES", "divisionName": "営業本部"})).json()
    d2 = (await api.post("/divisions", json={"divisionCode": "SALES-1", "divisionName": "第一営業部", "parentDivisionId": d1["divisionId"]})).json()
    dev = (await api.post("/divisions", json={"divisionCode": "DEV", "divisionName": "開発部"})).json()
    users = [
        await make_user(api, "wang", fullname="王伟", fullnameKana="ワン ウェイ", divisionIds=[d2["divisionId"]], sortScore=5,
                        employeeNum="E003", phoneNum="03-1234-5678", email1="wang@example.com", position="課長"),
        await make_user(api, "sato", fullname="佐藤 一郎", fullnameKana="サトウ イチロウ", divisionIds=[d1["divisionId"]], sortScore=9,
                        employeeNum="E001", extensionNum="1234", fullnameAlphabet="Ichiro Sato"),
        await make_user(api, "suzuki", fullname="鈴木 花子", fullnameKana="スズキ ハナコ", divisionIds=[dev["divisionId"]], sortScore=1,
                        employeeNum="E002", email1="hanako@example.com", position="課長"),
    ]
    return {"divisions": (d1, d2, dev), "users": users}


async def logins(api, **params):
    r = await api.get("/users", params=params)
    assert r.status_code == 200, r.text
    return [u.get("loginId") for u in r.json()["items"]]


async def test_free_words_combine_with_and_and_search_many_fields(api, people):
    assert sorted(await logins(api, freeWords=["課長"])) == ["suzuki", "wang"]
    assert await logins(api, freeWords=["課長", "開発"]) == ["suzuki"]
    assert await logins(api, freeWords=["hanako@example"]) == ["suzuki"]
    assert await logins(api, freeWords=["E001"]) == ["sato"]
    assert await logins(api, freeWords=["営業本部"]) == ["sato"]


async def test_cjk_substrings_of_two_and_three_characters_are_found(api, people):
    assert await logins(api, freeWords=["王伟"]) == ["wang"]  # SQLite 3.40.1 trigram LIKE misses this
    assert await logins(api, fullname="藤 一") == ["sato"]
    assert await logins(api, fullnameKana="スズキ") == ["suzuki"]
    assert await logins(api, fullname="王") == ["wang"]


async def test_phone_filter_matches_the_number_however_written(api, people):
    assert await logins(api, phoneNum="+81312345678") == ["wang"]
    assert await logins(api, phoneNum="0312345678") == ["wang"]
    assert await logins(api, phoneNum="1234") == ["sato"]


async def test_division_filter_walks_the_subtree_only_when_asked(api, people):
    top = people["divisions"][0]["divisionId"]
    assert await logins(api, divisionIds=[top]) == ["sato"]
    assert sorted(await logins(api, divisionIds=[top], includeSubDepartment="true")) == ["sato", "wang"]


async def test_exact_filters(api, people):
    assert await logins(api, employeeNum="E002") == ["suzuki"]
    assert await logins(api, email1="wang@example.com") == ["wang"]
    assert await logins(api, loginIds=["sato", "wang"], orderBy="employeeNum") == ["sato", "wang"]
    assert await logins(api, userType="FACILITY") == []


async def test_ordering_and_paging(api, people):
    assert await logins(api, orderBy="sortScore", orderDirection="desc", pageSize=2) == ["sato", "wang"]
    first = (await api.get("/users", params={"orderBy": "employeeNum", "pageSize": 2})).json()
    assert first["hasMore"] is True
    assert [u["loginId"] for u in first["items"]] == ["admin", "sato"]  # the admin's employeeNum is empty
    second = (await api.get("/users", params={"orderBy": "employeeNum", "pageSize": 2, "page": 1})).json()
    assert second["hasMore"] is False
    assert [u["loginId"] for u in second["items"]] == ["suzuki", "wang"]


async def test_reception_sees_directory_fields_only_and_select_outside_range_is_dropped(api, reception, people):
    wang = people["users"][0]["userId"]
    seen = (await reception.get(f"/users/{wang}")).json()
    assert seen["fullname"] == "王伟" and seen["phoneNum"] == "03-1234-5678"
    assert "roles" not in seen and "level" not in seen and "loginId" not in seen and "enabled" not in seen
    r = await reception.get("/users", params={"select": ["fullname", "level", "roles"], "userIds": [wang]})
    assert r.status_code == 200
    assert r.json()["items"] == [{"userId": wang, "fullname": "王伟"}]
    admin_view = (await api.get("/users", params={"select": ["fullname", "level"], "userIds": [wang]})).json()["items"]
    assert admin_view == [{"userId": wang, "fullname": "王伟", "level": 5}]


async def test_reception_may_not_manage_users(reception):
    r = await reception.post("/users", json={"loginId": "nope", "fullname": "Nope"})
    assert r.status_code == 403
    assert error_of(r)["status"] == "API_PERMISSION_DENIED"
