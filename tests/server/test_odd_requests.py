"""Well-formed but odd requests answer 4xx with the error object, never 500: each test
is a request a client could send by mistake, over HTTP (ASGI)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from corpdir.spec.images import MAX_IMAGE_PIXELS
from tests.server.conftest import client_for, error_of, jpeg, make_user

FTS_SPECIALS = ['"', "*", "^", ":", "(", ")", "NEAR", "AND", "OR", "NOT", '"b*', "c^d:", "e(f)", "NEAR AND", "e OR"]
ODD_NAME = 'a"b*c^d:e(f) NEAR AND e OR NOT'
USER_FILTERS = ["freeWords", "fullname", "fullnameKana"]
CONTACT_FILTERS = ["freeWords", "fullname", "fullnameKana", "companyName", "companyNameKana", "divisionName",
                   "divisionNameKana"]


@pytest.fixture
async def odd_records(api):
    """A user and a contact whose every searchable field holds the FTS5 specials."""
    user = await make_user(api, "odd", fullname=ODD_NAME, fullnameKana=ODD_NAME)
    contact = (await api.post("/contacts", json={
        "folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": ODD_NAME, "fullnameKana": ODD_NAME,
        "companyName": ODD_NAME, "companyNameKana": ODD_NAME, "divisionName": ODD_NAME, "divisionNameKana": ODD_NAME,
    })).json()
    return user["userId"], contact["contactId"]


@pytest.mark.parametrize("word", FTS_SPECIALS)
async def test_fts5_special_characters_and_keywords_are_searched_as_text(api, odd_records, word):
    user_id, contact_id = odd_records
    for field in USER_FILTERS:
        r = await api.get("/users", params={field: word})
        assert r.status_code == 200, (field, r.text)
        assert user_id in [u["userId"] for u in r.json()["items"]], field
    for field in CONTACT_FILTERS:
        r = await api.get("/contacts", params={field: word})
        assert r.status_code == 200, (field, r.text)
        assert contact_id in [c["contactId"] for c in r.json()["items"]], field


@pytest.mark.parametrize("path, field", [("/users", f) for f in USER_FILTERS] + [("/contacts", f) for f in CONTACT_FILTERS])
@pytest.mark.parametrize("word", ["a\x00b", "\x00", "abc\x00def"])
async def test_nul_in_a_partial_filter_is_400_naming_the_field(api, odd_records, path, field, word):
    r = await api.get(path, params={field: word})
    assert r.status_code == 400
    detail = error_of(r)["details"][0]
    expected = f"{field}[0]" if field == "freeWords" else field
    assert (detail["field"], detail["code"]) == (expected, "PATTERN") and "NUL" in detail["description"]


@pytest.mark.parametrize("content_type, body", [
    ("multipart/form-data", b"directory=SHARED"),
    ("multipart/form-data; boundary=xyz", b"this is not multipart at all"),
    ("multipart/form-data; boundary=xyz", b"--xyz\r\nContent-Disposition: form-data\r\n\r\nno name, no end"),
])
async def test_x5_with_a_broken_multipart_body_is_400(api, content_type, body):
    r = await api.post("/contacts/business-cards", content=body, headers={"Content-Type": content_type})
    assert r.status_code == 400
    assert error_of(r)["status"] == "INVALID_ARGUMENT" and "multipart" in error_of(r)["message"]


def _bomb(width: int = 20000, height: int = 20000) -> bytes:
    """A small JPEG that declares ``width`` x ``height`` pixels (a decompression bomb)."""
    out = io.BytesIO()
    Image.new("L", (64, 64)).save(out, format="JPEG")
    data = bytearray(out.getvalue())
    sof = data.index(b"\xff\xc0")  # baseline frame header: length(2) precision(1) height(2) width(2)
    data[sof + 5:sof + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


async def test_images_over_the_pixel_limit_are_413_naming_it(api):
    user_id = (await make_user(api, "photo"))["userId"]
    contact = (await api.post("/contacts", json={"folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "C"})).json()
    just_over = _bomb(8001, 5000)  # 40,005,000 pixels: over the limit, under Pillow's own guard
    for bomb in (_bomb(), just_over):
        for r in (
            await api.put(f"/users/{user_id}/photo", content=bomb, headers={"Content-Type": "image/jpeg"}),
            await api.put(f"/contacts/{contact['contactId']}/business-card", content=bomb, headers={"Content-Type": "image/jpeg"}),
            await api.post("/contacts/business-cards", data={"directory": "SHARED", "folderNum": "1"},
                           files={"businessCardImage": ("card.jpg", bomb, "image/jpeg")}),
        ):
            assert r.status_code == 413, r.text
            assert error_of(r)["status"] == "PAYLOAD_TOO_LARGE" and f"{MAX_IMAGE_PIXELS:,}" in error_of(r)["message"]
    assert (await api.get(f"/users/{user_id}/photo")).status_code == 404  # nothing stored
    at_limit = jpeg(8000, 5000)
    assert (await api.put(f"/users/{user_id}/photo", content=at_limit, headers={"Content-Type": "image/jpeg"})).status_code == 204


UNCONVERTIBLE = ["0001-01-01T00:00:00+09:00", "9999-12-31T23:59:59-01:00", "0120-01-09T00:00:00Z"]


@pytest.mark.parametrize("value", UNCONVERTIBLE)
async def test_date_times_outside_the_calendar_are_400_on_the_field(api, value):
    incoming = (await api.post("/me/incoming-calls", json={"answered": True, "calledAt": "2024-05-01T09:00:00Z"})).json()
    outgoing = (await api.post("/me/outgoing-calls", json={"toNum": "1", "answered": True, "callingAt": "2024-05-01T09:00:00Z"})).json()
    cases = [
        (await api.post("/me/incoming-calls", json={"answered": True, "calledAt": value}), "calledAt"),
        (await api.patch(f"/me/incoming-calls/{incoming['incomingCallHistoryId']}", json={"calledAt": value}), "calledAt"),
        (await api.post("/me/outgoing-calls", json={"toNum": "1", "answered": True, "callingAt": value}), "callingAt"),
        (await api.patch(f"/me/outgoing-calls/{outgoing['outgoingCallHistoryId']}", json={"callingAt": value}), "callingAt"),
        (await api.get("/contacts", params={"updatedFrom": value}), "updatedFrom"),
        (await api.get("/contacts", params={"updatedTo": value}), "updatedTo"),
    ]
    for r, field in cases:
        assert r.status_code == 400, (field, r.text)
        assert error_of(r)["details"][0]["field"] == field and error_of(r)["details"][0]["code"] == "OUT_OF_RANGE"
    assert len((await api.get("/me/incoming-calls")).json()["items"]) == 1  # nothing written
    assert (await api.get("/me/incoming-calls")).json()["items"][0]["calledAt"] == "2024-05-01T09:00:00.000Z"


async def test_variant_c_stores_a_repeated_division_once(api):
    division = (await api.post("/divisions", json={"divisionCode": "sales", "divisionName": "営業部"})).json()["divisionId"]
    other = (await api.post("/divisions", json={"divisionCode": "dev", "divisionName": "開発部"})).json()["divisionId"]
    r = await api.post("/users", json={"loginId": "twice", "fullname": "Twice", "divisionIds": [division, other, division]})
    assert r.status_code == 201
    assert [d["divisionId"] for d in r.json()["divisions"]] == [division, other]
    r = await api.patch(f"/users/{r.json()['userId']}", json={"divisionIds": [other, other]})
    assert [d["divisionId"] for d in r.json()["divisions"]] == [other]


async def test_variant_b_still_refuses_a_repeated_division(make_app):
    async with client_for(make_app(variant="B")) as api:
        division = (await api.post("/divisions", json={"divisionCode": "s", "divisionName": "S"})).json()["divisionId"]
        r = await api.post("/users", json={"loginId": "b", "fullname": "B", "divisionIds": [division, division]})
        assert r.status_code == 400 and error_of(r)["details"][0]["code"] == "NOT_UNIQUE"


@pytest.mark.parametrize("url, field", [
    ("/users/%201", "userId"), ("/users/%EF%BC%91", "userId"), ("/users/1_0", "userId"), ("/users/1.0", "userId"),
    ("/users?page=1.0", "page"), ("/users?page=%205", "page"), ("/users?page=5%20", "page"),
    ("/users?page=%EF%BC%91", "page"), ("/users?page=1_0", "page"), ("/users?userIds=%201", "userIds[0]"),
    ("/contacts?page=0x1", "page"), ("/contacts?registeredUserId=1e3", "registeredUserId"),
])
async def test_integers_are_ascii_digits_with_an_optional_sign(api, url, field):
    r = await api.get(url)
    assert r.status_code == 400, r.text
    assert error_of(r)["details"][0]["field"] == field and error_of(r)["details"][0]["code"] == "INVALID_TYPE"


async def test_signed_ascii_integers_still_read(api):
    assert (await api.get("/users/+1")).json()["userId"] == 1
    assert (await api.get("/users", params={"page": "+0", "pageSize": "5"})).status_code == 200


async def test_the_last_company_admin_cannot_delete_itself_or_drop_the_role(app, api):
    for r in (await api.delete("/users/1"), await api.patch("/users/1", json={"roles": ["ADMIN_USER"]}),
              await api.patch("/users/1", json={"enabled": False})):
        assert r.status_code == 422
        assert error_of(r)["status"] == "UNPROCESSABLE" and "last enabled ADMIN_COMPANY" in error_of(r)["message"]
    me = (await api.get("/users/1")).json()
    assert me["roles"] == ["ADMIN_COMPANY"] and me["enabled"] is True
    second = await make_user(api, "second", roles=["ADMIN_COMPANY"], paapiAvailable=True)
    assert (await api.patch("/users/1", json={"roles": []})).status_code == 200  # another admin is left
    async with client_for(app, app.state.storage.create_api_key(second["userId"], "second-key")) as admin:
        r = await admin.delete(f"/users/{second['userId']}")
        assert r.status_code == 422  # now the second is the last one
        assert (await admin.delete("/users/1")).status_code == 204


async def test_the_login_ids_filter_needs_user_management(api, reception):
    await make_user(api, "secret.login")
    r = await reception.get("/users", params={"loginIds": ["secret.login"]})
    assert r.status_code == 403 and error_of(r)["status"] == "RESOURCE_PERMISSION_DENIED"
    assert "loginIds" in error_of(r)["message"]
    r = await reception.get("/users", params={"loginIds": ["no.such.login"]})
    assert r.status_code == 403  # the same answer whether the id exists or not
    found = (await api.get("/users", params={"loginIds": ["secret.login"]})).json()["items"]
    assert [u["loginId"] for u in found] == ["secret.login"]
