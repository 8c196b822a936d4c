"""External contacts (X1-X8), visibility by folder, duplicate merging, card images."""

from __future__ import annotations

import pytest

from tests.server.conftest import error_of, jpeg, png

SHARED = {"directory": "SHARED", "folderNum": 1}


async def add(api, fullname, folder=SHARED, **kw):
    r = await api.post("/contacts", json={"folderId": folder, "fullname": fullname, **kw})
    assert r.status_code == 201, r.text
    return r.json()


async def personal_folder(client, name="Mine"):
    r = await client.post("/personal-folders", json={"folderName": name})
    assert r.status_code == 201, r.text
    return {"directory": "PERSONAL", "folderNum": r.json()["folderNum"]}


async def names(client, **params):
    r = await client.get("/contacts", params=params)
    assert r.status_code == 200, r.text
    return [c["fullname"] for c in r.json()["items"]]


async def test_create_edit_and_the_full_record_comes_back(api):
    c = await add(api, "田中 一郎", companyName="株式会社サンプル", phoneNum="0355550000",
                  headquartersLocation={"zipCode": "100-0001", "address1": "千代田区"})
    assert c["folderId"] == SHARED and c["registeredUser"]["loginId"] == "admin"
    assert c["updatedAt"].endswith("Z") and len(c["updatedAt"]) == len("2024-01-01T00:00:00.000Z")
    r = await api.patch(f"/contacts/{c['contactId']}", json={"position": "部長"})
    edited = r.json()
    assert edited["position"] == "部長" and edited["companyName"] == "株式会社サンプル"
    assert edited["updatedAt"] > c["updatedAt"]
    r = await api.patch(f"/contacts/{c['contactId']}", json={"folderId": SHARED})
    assert r.status_code == 400 and error_of(r)["details"][0]["code"] == "NOT_EDITABLE"


async def test_filters_and_ordering(api):
    await add(api, "Alpha Person", companyName="Acme Trading", divisionName="Sales", email1="a@acme.example")
    await add(api, "Beta Person", companyName="Globex", phoneNum="045-111-2222", fullnameKana="ベータ")
    await add(api, "Gamma Person", companyName="acme trading")
    assert await names(api, companyName="Acme") == ["Alpha Person", "Gamma Person"]
    assert await names(api, phoneNum="+81451112222") == ["Beta Person"]
    assert await names(api, email="a@acme.example") == ["Alpha Person"]
    assert await names(api, fullnameKana="ータ") == ["Beta Person"]
    assert await names(api, fullnameKana="ガンマ") == []
    assert await names(api, divisionName="Sal") == ["Alpha Person"]
    assert await names(api, freeWords=["acme", "gamma"]) == ["Gamma Person"]
    assert await names(api, orderBy="fullname", orderDirection="desc") == ["Gamma Person", "Beta Person", "Alpha Person"]
    assert await names(api) == ["Alpha Person", "Beta Person", "Gamma Person"]  # updatedAt ascending


async def test_updated_window_and_registered_user(api, clock):
    await add(api, "Old")
    clock.advance(3600)
    await add(api, "New")
    assert await names(api, updatedFrom="2023-11-14T23:00:00Z") == ["New"]
    assert await names(api, updatedTo="2023-11-14T23:00:00+00:00") == ["Old"]
    assert await names(api, registeredUserId=1) == ["Old", "New"]
    r = await api.get("/contacts", params={"updatedFrom": "yesterday"})
    assert r.status_code == 400 and error_of(r)["details"][0]["field"] == "updatedFrom"


async def test_identified_merges_duplicates_keeping_the_oldest(api):
    first = await add(api, "Dup", companyName="Same", email1="d@x.example")
    await add(api, "Dup", companyName="Same", email1="d@x.example")
    await add(api, "Dup", companyName="Other", email1="d@x.example")
    items = (await api.get("/contacts", params={"identified": "true", "fullname": "Dup"})).json()["items"]
    assert len(items) == 2 and first["contactId"] in [c["contactId"] for c in items]
    assert len((await api.get("/contacts", params={"fullname": "Dup"})).json()["items"]) == 3


async def test_personal_contacts_are_visible_to_their_owner_only(api, reception):
    mine = await personal_folder(reception)
    private = await add(reception, "Private Friend", folder=mine)
    await add(api, "Shared One")
    assert await names(reception) == ["Private Friend", "Shared One"]
    assert await names(api) == ["Shared One"]
    assert await names(reception, directory="PERSONAL") == ["Private Friend"]
    assert await names(reception, folderNums=[mine["folderNum"]], directory="PERSONAL") == ["Private Friend"]
    r = await api.patch(f"/contacts/{private['contactId']}", json={"comment": "peek"})
    assert r.status_code == 403 and error_of(r)["status"] == "RESOURCE_PERMISSION_DENIED"


async def test_shared_folders_need_shared_folder_editing(reception):
    r = await reception.post("/contacts", json={"folderId": SHARED, "fullname": "Not allowed"})
    assert r.status_code == 403 and error_of(r)["status"] == "RESOURCE_PERMISSION_DENIED"


async def test_unknown_folder_is_unprocessable(api):
    r = await api.post("/contacts", json={"folderId": {"directory": "SHARED", "folderNum": 77}, "fullname": "X"})
    assert r.status_code == 422


async def test_delete_contact_deletes_card_image_and_group_membership(app, api):
    c = await add(api, "Card Holder")
    cid = c["contactId"]
    assert (await api.put(f"/contacts/{cid}/business-card", content=jpeg(), headers={"Content-Type": "image/jpeg"})).status_code == 204
    app.state.storage.add_to_group(7, cid)
    assert app.state.storage.group_members(7) == [cid]
    assert (await api.delete(f"/contacts/{cid}")).status_code == 204
    assert app.state.storage.group_members(7) == []
    assert app.state.storage.get_card(cid) is None
    assert (await api.get(f"/contacts/{cid}/business-card")).status_code == 404


async def test_card_image_put_get_delete(api):
    cid = (await add(api, "Card"))["contactId"]
    image = jpeg(color="white")
    await api.put(f"/contacts/{cid}/business-card", content=image, headers={"Content-Type": "image/jpeg"})
    r = await api.get(f"/contacts/{cid}/business-card")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg" and r.content == image
    assert (await api.delete(f"/contacts/{cid}/business-card")).status_code == 204
    assert (await api.get(f"/contacts/{cid}/business-card")).status_code == 404
    r = await api.put(f"/contacts/{cid}/business-card", content=png(), headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 415 and error_of(r)["status"] == "UNSUPPORTED_MEDIA_TYPE"


async def test_business_card_upload_creates_a_contact_with_the_image(api):
    files = {"businessCardImage": ("card.jpg", jpeg(), "image/jpeg")}
    r = await api.post("/contacts/business-cards", files=files,
                       data={"directory": "SHARED", "folderNum": "1", "readerType": "OPERATOR", "comment": "met at expo"})
    assert r.status_code == 201, r.text
    cid = r.json()["contactId"]
    contact = (await api.get("/contacts", params={"ocrResult": "FAILURE"})).json()["items"][0]
    assert contact["contactId"] == cid and contact["ocrType"] == "OPERATOR" and contact["comment"] == "met at expo"
    assert contact.get("fullname", "") == ""
    assert (await api.get(f"/contacts/{cid}/business-card")).content == files["businessCardImage"][1]


async def test_business_card_reader_is_pluggable(make_app):
    from tests.server.conftest import client_for

    app = make_app(card_reader=lambda image, form: {"fullname": "読取 太郎", "companyName": "OCR社"})
    async with client_for(app) as api:
        r = await api.post("/contacts/business-cards", files={"businessCardImage": ("c.jpg", jpeg(), "image/jpeg")},
                           data={"directory": "SHARED", "folderNum": "1"})
        contact = (await api.get("/contacts")).json()["items"][0]
    assert r.status_code == 201
    assert (contact["fullname"], contact["ocrType"], contact["ocrResult"]) == ("読取 太郎", "MACHINE", "SUCCESS")


@pytest.mark.parametrize("data, files, field, code", [
    ({"directory": "SHARED"}, {"businessCardImage": ("c.jpg", jpeg(), "image/jpeg")}, "folderNum", "REQUIRED"),
    ({"directory": "SHARED", "folderNum": "1"}, {"comment": (None, "no image")}, "businessCardImage", "REQUIRED"),
    ({"directory": "ELSEWHERE", "folderNum": "1"}, {"businessCardImage": ("c.jpg", jpeg(), "image/jpeg")}, "directory", "INVALID_ENUM"),
])
async def test_business_card_form_is_validated(api, data, files, field, code):
    r = await api.post("/contacts/business-cards", data=data, files=files)
    assert r.status_code == 400
    assert error_of(r)["details"][0]["field"] == field and error_of(r)["details"][0]["code"] == code


async def test_business_card_must_be_a_jpeg(api):
    r = await api.post("/contacts/business-cards", files={"businessCardImage": ("c.jpg", png(), "image/jpeg")},
                       data={"directory": "SHARED", "folderNum": "1"})
    assert r.status_code == 415
