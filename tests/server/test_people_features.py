"""Photos, profiles, destinations, folders, phone identification, call histories, spots."""

from __future__ import annotations

import io

from PIL import Image

from tests.server.conftest import error_of, jpeg, make_user


async def test_photo_full_and_thumbnail(api):
    user = await make_user(api, "face")
    photo = jpeg(800, 600)
    assert (await api.put(f"/users/{user['userId']}/photo", content=photo, headers={"Content-Type": "image/jpeg"})).status_code == 204
    full = await api.get(f"/users/{user['userId']}/photo", headers={"Accept": "image/jpeg"})
    assert full.status_code == 200 and full.content == photo and full.headers["content-type"] == "image/jpeg"
    thumb = await api.get(f"/users/{user['userId']}/photo", params={"size": "THUMBNAIL"})
    assert max(Image.open(io.BytesIO(thumb.content)).size) <= 160
    assert (await api.get(f"/users/{user['userId']}/photo", params={"size": "HUGE"})).status_code == 400
    assert (await api.delete(f"/users/{user['userId']}/photo")).status_code == 204
    assert (await api.get(f"/users/{user['userId']}/photo")).status_code == 404


async def test_profile_own_edit_moves_self_updated_at_and_others_need_user_management(app, api, reception, keys):
    app.state.storage.add_custom_column("趣味", 1)
    me = keys["reception_id"]
    r = await reception.patch(f"/users/{me}/profile", json={
        "oneWord": "よろしく", "skills": ["Python", "SQL", "Python"], "customColumns": [{"customColumnId": 1, "customColumnValue": "囲碁"}],
        "briefHistories": [{"briefHistoryDate": "2020-04-01", "briefHistoryText": "入社"}],
    })
    assert r.status_code == 200, r.text
    profile = r.json()
    assert profile["skills"] == ["Python", "SQL"]  # duplicates keep the first
    assert profile["customColumns"] == [{"customColumnId": 1, "customColumnValue": "囲碁", "customColumnTitle": "趣味"}]
    assert "selfUpdatedAt" in profile
    by_admin = (await api.patch(f"/users/{me}/profile", json={"jobDescription": "受付"})).json()
    assert by_admin["selfUpdatedAt"] == profile["selfUpdatedAt"] and by_admin["oneWord"] == "よろしく"
    r = await reception.patch("/users/1/profile", json={"oneWord": "hi"})
    assert r.status_code == 403 and error_of(r)["status"] == "RESOURCE_PERMISSION_DENIED"
    assert (await reception.get("/users/1/profile")).status_code == 200
    r = await api.patch(f"/users/{me}/profile", json={"customColumns": [{"customColumnId": 9}]})
    assert r.status_code == 422


async def test_destinations_count_sent_and_registered_entries(app, api):
    user = await make_user(api, "dest")
    r = await api.patch("/destinations", json={"destinations": [
        {"loginId": "dest", "destinationId": 3, "destinationName": "会議室A"},
        {"loginId": "nobody", "destinationId": 4},
        {"loginId": "admin", "destinationId": 5},
    ]})
    assert r.json() == {"destinationsCount": 3, "registeredCount": 2}
    assert app.state.storage.get_destination(user["userId"]) == {"destinationId": 3, "destinationName": "会議室A"}


async def test_folders_list_shared_first_and_personal_folders_order(api, reception):
    for name, score in (("b", 0), ("a", 0), ("top", 5)):
        assert (await reception.post("/personal-folders", json={"folderName": name, "sortScore": score})).status_code == 201
    assert (await reception.post("/personal-folders", json={"folderName": "z"})).json()["sortScore"] == 0
    p1 = (await reception.get("/personal-folders")).json()["items"]
    assert [f["folderName"] for f in p1] == ["top", "a", "b", "z"]
    f1 = (await reception.get("/folders")).json()["items"]
    assert [f["folderId"]["directory"] for f in f1] == ["SHARED", "PERSONAL", "PERSONAL", "PERSONAL", "PERSONAL"]
    assert [f["folderId"]["folderNum"] for f in f1[1:]] == sorted(f["folderId"]["folderNum"] for f in f1[1:])
    editable = (await reception.get("/folders", params={"editingPrivileges": "true"})).json()["items"]
    assert all(f["folderId"]["directory"] == "PERSONAL" for f in editable)
    assert len((await api.get("/folders")).json()["items"]) == 1  # the admin has no personal folders
    num = p1[0]["folderNum"]
    r = await reception.patch(f"/personal-folders/{num}", json={"folderName": "renamed"})
    assert r.json() == {"folderNum": num, "folderName": "renamed", "sortScore": 5}
    r = await api.patch(f"/personal-folders/{num}", json={"folderName": "mine now"})
    assert r.status_code == 403 and error_of(r)["status"] == "RESOURCE_PERMISSION_DENIED"
    assert (await api.patch("/personal-folders/999", json={"folderName": "x"})).status_code == 404


async def test_identify_numbers_however_written(api):
    div = (await api.post("/divisions", json={"divisionCode": "REC", "divisionName": "受付", "divisionPhoneNum": "03-9999-0000"})).json()
    user = await make_user(api, "caller", fullname="発信 太郎", phoneNum="03-1234-5678", divisionIds=[div["divisionId"]])
    contact = (await api.post("/contacts", json={"folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "取引 先子",
                                                "companyName": "取引株式会社", "mobileNum": "090-1111-2222",
                                                "companyDelegatedPhoneNum": "06-5555-0000"})).json()
    r = await api.post("/phone-numbers/identify", json={"phoneNums": ["+81-3-1234-5678", "0312345678", "09011112222", "0399990000", "+81655550000"]})
    items = r.json()["items"]
    assert [i["phoneNumContactType"] for i in items] == ["USER", "USER", "CONTACT", "SHARED_NUMBER", "SHARED_NUMBER"]
    assert items[0]["userId"] == user["userId"] and items[0]["displayName"] == "発信 太郎" and items[0]["divisionNames"] == ["受付"]
    assert items[2]["contactId"] == contact["contactId"] and items[2]["companyName"] == "取引株式会社"
    assert items[4]["displayName"] == "取引株式会社"
    unknown = (await api.post("/phone-numbers/identify", json={"phoneNums": ["0120000000"]})).json()["items"]
    assert unknown == [{"phoneNum": "0120000000"}]


async def test_call_histories_are_the_callers_own(api, reception):
    await make_user(api, "known", fullname="既知 者", phoneNum="0311110000")
    r = await reception.post("/me/incoming-calls", json={"fromNum": "+81311110000", "answered": False, "calledAt": "2024-05-01T09:00:00+09:00",
                                                         "voicemail": {"urlBrowser": "https://vm.example/1"}})
    assert r.status_code == 201, r.text
    record = r.json()
    assert record["calledAt"] == "2024-05-01T00:00:00.000Z" and record["fromNumContact"]["displayName"] == "既知 者"
    await reception.post("/me/incoming-calls", json={"fromNum": "1234", "answered": True, "calledAt": "2024-05-02T09:00:00Z", "duration": 30})
    listed = (await reception.get("/me/incoming-calls", params={"orderDirection": "desc"})).json()["items"]
    assert [c["fromNum"] for c in listed] == ["1234", "+81311110000"]
    assert [c["fromNum"] for c in (await reception.get("/me/incoming-calls", params={"answered": "false"})).json()["items"]] == ["+81311110000"]
    assert (await api.get("/me/incoming-calls")).json()["items"] == []
    cid = record["incomingCallHistoryId"]
    edited = (await reception.patch(f"/me/incoming-calls/{cid}", json={"note": "折り返し済"})).json()
    assert edited["note"] == "折り返し済" and edited["answered"] is False and edited["voicemail"] == {"urlBrowser": "https://vm.example/1"}
    r = await api.patch(f"/me/incoming-calls/{cid}", json={"note": "x"})
    assert r.status_code == 403 and error_of(r)["status"] == "RESOURCE_PERMISSION_DENIED"

    out = (await reception.post("/me/outgoing-calls", json={"toNum": "0311110000", "answered": True, "callingAt": "2024-05-01T10:00:00Z"})).json()
    assert out["toNumContact"]["phoneNumContactType"] == "USER"
    oid = out["outgoingCallHistoryId"]
    assert (await reception.patch(f"/me/outgoing-calls/{oid}", json={"duration": 61})).json()["duration"] == 61
    assert len((await reception.get("/me/outgoing-calls")).json()["items"]) == 1
    r = await reception.post("/me/outgoing-calls", json={"answered": True, "callingAt": "2024-05-01T10:00:00Z"})
    assert r.status_code == 400 and error_of(r)["details"][0] == {"field": "toNum", "code": "REQUIRED", "description": "is required"}


async def test_spots_one_accepted_request_per_five_minutes_and_ten_minute_expiry(app, api, clock):
    await make_user(api, "tagged", bleId="AA:BB:CC")
    body = {"locations": [{"bleId": "AA:BB:CC", "spotId": "lobby"}, {"bleId": "unknown", "spotId": "x"}]}
    r = await api.post("/locations/spots", json=body)
    assert r.json() == {"locationsCount": 2, "acceptedCount": 1}
    clock.advance(100)
    r = await api.post("/locations/spots", json=body)  # "above the limit" (spec 8): 429, the seconds left
    assert r.status_code == 429 and error_of(r)["status"] == "RESOURCE_EXHAUSTED" and r.headers["retry-after"] == "200"
    assert "200 s" in error_of(r)["message"]
    clock.advance(199)
    assert (await api.post("/locations/spots", json=body)).headers["retry-after"] == "1"
    clock.advance(1)
    assert (await api.post("/locations/spots", json={"locations": []})).status_code == 400  # an error does not count
    assert (await api.post("/locations/spots", json=body)).status_code == 200
    storage = app.state.storage
    assert len(storage.current_spots(clock())) == 2
    clock.advance(300)  # the first spot is now 10 minutes old
    assert storage.current_spots(clock()) == [{"bleId": "AA:BB:CC", "spotId": "lobby"}]
    clock.advance(300)
    assert storage.current_spots(clock()) == []


async def test_location_admin_needs_admin_company_or_a_recent_ibasho_contract(app, api):
    ibasho = await make_user(api, "ibasho", roles=["ADMIN_IBASHO"], paapiAvailable=True)
    key = app.state.storage.create_api_key(ibasho["userId"], "ibasho-key")
    from tests.server.conftest import client_for

    body = {"locations": [{"bleId": "x", "spotId": "y"}]}
    async with client_for(app, key) as client:
        app.state.storage.set_meta("location_contract_date", "2019-07-03")
        r = await client.post("/locations/spots", json=body)
        assert r.status_code == 403 and error_of(r)["status"] == "API_PERMISSION_DENIED"
        app.state.storage.set_meta("location_contract_date", "2019-07-04")
        assert (await client.post("/locations/spots", json=body)).status_code == 200
