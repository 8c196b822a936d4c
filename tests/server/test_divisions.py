"""Divisions (D1-D5): the tree, moves, subtree deletion that leaves users in place."""

from __future__ import annotations

from tests.server.conftest import error_of, make_user


async def create(api, code, name, parent=None, **kw):
    body = {"divisionCode": code, "divisionName": name, **kw}
    if parent is not None:
        body["parentDivisionId"] = parent
    r = await api.post("/divisions", json=body)
    assert r.status_code == 201, r.text
    return r.json()["divisionId"]


async def test_children_are_listed_on_the_parent(api):
    top = await create(api, "HQ", "本社")
    a = await create(api, "HQ-A", "総務部", top)
    b = await create(api, "HQ-B", "人事部", top)
    got = (await api.get(f"/divisions/{top}")).json()
    assert sorted(got["childDivisionIds"]) == [a, b]
    assert (await api.get(f"/divisions/{a}")).json()["parentDivisionId"] == top


async def test_edit_is_partial_and_a_rename_reaches_member_search(api):
    d = await create(api, "OPS", "運用部", divisionPhoneNum="0300001111")
    await make_user(api, "member", divisionIds=[d])
    r = await api.patch(f"/divisions/{d}", json={"divisionName": "運用管理部"})
    assert r.json()["divisionPhoneNum"] == "0300001111" and r.json()["divisionName"] == "運用管理部"
    found = (await api.get("/users", params={"freeWords": ["運用管理"]})).json()["items"]
    assert [u["loginId"] for u in found] == ["member"]


async def test_moving_under_own_descendant_is_unprocessable(api):
    top = await create(api, "T", "Top")
    child = await create(api, "T-1", "Child", top)
    grandchild = await create(api, "T-1-1", "Grandchild", child)
    for target in (top, grandchild):
        r = await api.patch(f"/divisions/{top}", json={"parentDivisionId": target})
        assert r.status_code == 422
        assert error_of(r)["status"] == "UNPROCESSABLE"
    assert (await api.patch(f"/divisions/{grandchild}", json={"parentDivisionId": 0})).json().get("parentDivisionId") is None


async def test_unknown_parent_is_unprocessable_and_duplicate_code_already_exists(api):
    r = await api.post("/divisions", json={"divisionCode": "X", "divisionName": "X", "parentDivisionId": 999})
    assert r.status_code == 422
    await create(api, "SAME", "One")
    r = await api.post("/divisions", json={"divisionCode": "SAME", "divisionName": "Two"})
    assert r.status_code == 409 and error_of(r)["status"] == "ALREADY_EXISTS"


async def test_deleting_a_division_deletes_its_subtree_only_and_users_stay(api):
    top = await create(api, "A", "A")
    child = await create(api, "A-1", "A1", top)
    grandchild = await create(api, "A-1-1", "A11", child)
    sibling = await create(api, "B", "B")
    user = await make_user(api, "linked", divisionIds=[grandchild, sibling])
    assert (await api.delete(f"/divisions/{top}")).status_code == 204
    for gone in (top, child, grandchild):
        assert (await api.get(f"/divisions/{gone}")).status_code == 404
    assert (await api.get(f"/divisions/{sibling}")).status_code == 200
    kept = (await api.get(f"/users/{user['userId']}")).json()
    assert kept["divisions"] == [{"divisionId": sibling, "divisionName": "B"}]


async def test_list_filters(api):
    top = await create(api, "L", "Logistics")
    await create(api, "L-1", "Logistics East", top)
    await create(api, "M", "Marketing")
    names = lambda r: [d["divisionName"] for d in r.json()["items"]]  # noqa: E731
    assert sorted(names(await api.get("/divisions", params={"firstLayer": "true"}))) == ["Logistics", "Marketing"]
    assert names(await api.get("/divisions", params={"divisionCodes": ["L-1"]})) == ["Logistics East"]
    assert sorted(names(await api.get("/divisions", params={"divisionName": "logis"}))) == ["Logistics", "Logistics East"]
    assert names(await api.get("/divisions", params={"divisionIds": [top]})) == ["Logistics"]
    paged = (await api.get("/divisions", params={"pageSize": 2})).json()
    assert paged["hasMore"] is True and len(paged["items"]) == 2


async def test_reception_may_read_but_not_manage_divisions(api, reception):
    d = await create(api, "R", "Reception")
    assert (await reception.get(f"/divisions/{d}")).status_code == 200
    r = await reception.delete(f"/divisions/{d}")
    assert r.status_code == 403 and error_of(r)["status"] == "API_PERMISSION_DENIED"
