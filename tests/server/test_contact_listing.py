"""X1 without ``select`` joins the stored records (column fields merged in by SQLite
triggers since schema 4): its bytes are those of the record-by-record answer and of the
answer schema 3 made (stored fields merged with the columns by ``json_patch`` when read),
through creates, edits, cleared fields, card images, groups, OCR columns, registrars
renamed or deleted, unusual text, and the migration of a schema 3 database."""

from __future__ import annotations

import json
import sqlite3
import time

from corpdir.server.present import present_contact
from corpdir.server.storage import Storage
from corpdir.server.storage.contacts import stored_fields
from corpdir.server.storage.db import dumps, loads
from corpdir.server.storage.schema import MIGRATIONS
from corpdir.spec.contact import Contact
from tests.server.conftest import jpeg, make_user

SHARED = {"directory": "SHARED", "folderNum": 1}
URL = "http://127.0.0.1:8765"  # ServerSettings.public_url's default, which the test app keeps

UNUSUAL = {
    "fullname": 'O\'Brien "Q" \\ 😀 \u2028\u2029 </script>',
    "fullnameKana": "タブ\tと改行\nと\x00\x01\x1f\x7f",
    "companyName": "Ｆｕｌｌ ｗｉｄｔｈ 株式会社 e\u0301 \u200b\ufeff",
    "comment": "\\u0041 is not A; /slash/ & <b>",
    "headquartersLocation": {"zipCode": "100-0001", "address1": "千代田区\r\n1-1", "address2": ""},
    "email1": "üñí@例え.jp",
}

# what schema 3 did when X1 was asked: the stored fields merged with the column fields
_SCHEMA3_MERGE = (
    "SELECT json_patch(?, json_object('contactId', id, 'folderId', json_object('directory', directory, 'folderNum',"
    " folder_num), 'registeredAt', registered_at, 'updatedAt', updated_at, 'ocrStatus', ocr_status, 'ocrType', ocr_type,"
    " 'ocrResult', ocr_result)) FROM contacts WHERE id = ?"
)


def schema3_answer(storage: Storage, ids: list[int], more: bool) -> bytes:
    """X1's answer as schema 3 built it, from the stored fields and the columns."""
    conn = storage.db.conn
    registrars = storage._registrars(conn, {r[0] for r in conn.execute(
        f"SELECT registered_user_id FROM contacts WHERE id IN ({','.join('?' * len(ids))}) AND registered_user_id",
        ids)})
    items = []
    for cid in ids:
        data, registrar = conn.execute("SELECT data, registered_user_id FROM contacts WHERE id = ?", (cid,)).fetchone()
        text = conn.execute(_SCHEMA3_MERGE, (dumps(stored_fields(loads(data))), cid)).fetchone()[0][:-1]
        if registrar in registrars:
            text += ',"registeredUser":' + json.dumps(registrars[registrar], ensure_ascii=False, separators=(",", ":"))
        items.append(text + ',"contactDetailsUrl":' + json.dumps(f"{URL}/contacts/{cid}", ensure_ascii=False) + "}")
    return ('{"hasMore":' + json.dumps(more) + ',"items":[' + ",".join(items) + "]}").encode()


def model_answer(storage: Storage, ids: list[int], more: bool) -> bytes:
    """The record-by-record answer: each record as a dict, presented, encoded as JSONResponse does."""
    page = {"hasMore": more, "items": [present_contact(c, public_url=URL) for c in storage.get_contacts(ids)]}
    return json.dumps(page, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


async def add(api, fullname, folder=SHARED, **kw):
    r = await api.post("/contacts", json={"folderId": folder, "fullname": fullname, **kw})
    assert r.status_code == 201, r.text
    return r.json()


async def check_pages(api, storage, page_size: int = 500) -> list[dict]:
    """Every page of X1 is byte for byte the model's answer and schema 3's; returns the items."""
    items, page = [], 0
    while True:
        r = await api.get("/contacts", params={"pageSize": page_size, "page": page})
        assert r.status_code == 200 and r.headers["content-type"] == "application/json", r.text
        body = r.json()
        ids = [c["contactId"] for c in body["items"]]
        assert r.content == model_answer(storage, ids, body["hasMore"])
        assert r.content == schema3_answer(storage, ids, body["hasMore"])
        for item in body["items"]:
            Contact.model_validate(item)
        items += body["items"]
        if not body["hasMore"]:
            return items
        page += 1


async def test_listed_bytes_are_the_models_through_edits_cards_groups_and_registrars(app, api, clock):
    storage = app.state.storage
    sales = (await api.post("/divisions", json={"divisionCode": "S", "divisionName": "営業 \"本部\""})).json()
    desk = (await api.post("/divisions", json={"divisionCode": "D", "divisionName": "受付"})).json()
    clerk = await make_user(api, "clerk", fullname="事務 \\ 員", divisionIds=[desk["divisionId"], sales["divisionId"]])
    gone = await make_user(api, "gone", fullname="退職 者")

    plain = await add(api, "田中 一郎", companyName="株式会社サンプル", phoneNum="03-5555-0000")
    unusual = await add(api, **UNUSUAL)
    edited = await add(api, "編集 前", companyName="旧社", position="課長", comment="消す")
    with_card = await add(api, "名刺 有り", email2="card@example.com")
    grouped = await add(api, "グループ 員", officeLocation={"address1": "大阪"})
    bare = await add(api, "Bare")
    by_clerk = storage.create_contact({"folderId": SHARED, "fullname": "登録 者付き"}, None, clerk["userId"])
    by_gone = storage.create_contact({"folderId": SHARED, "fullname": "登録者 退職"}, None, gone["userId"])
    files = {"businessCardImage": ("card.jpg", jpeg(), "image/jpeg")}
    from_card = (await api.post("/contacts/business-cards", files=files,
                                data={"directory": "SHARED", "folderNum": "1", "readerType": "AUTO", "comment": "読取"})).json()
    before = await check_pages(api, storage)
    assert {c["contactId"] for c in before} >= {plain["contactId"], by_clerk, from_card["contactId"]}

    clock.advance(60)
    # an edit that changes, clears and adds fields; a later field then comes after the first ones
    r = await api.patch(f"/contacts/{edited['contactId']}", json={
        "companyName": "新社", "comment": "", "remarks": "後から \"追加\"", "headquartersLocation": {"address1": "京都"}})
    assert r.status_code == 200, r.text
    r = await api.patch(f"/contacts/{unusual['contactId']}", json={"position": "\ud7ff\U0010ffff"})
    assert r.status_code == 200, r.text
    assert (await api.put(f"/contacts/{with_card['contactId']}/business-card", content=jpeg(),
                          headers={"Content-Type": "image/jpeg"})).status_code == 204
    storage.add_to_group(3, grouped["contactId"])
    storage.add_to_group(3, bare["contactId"])
    assert (await api.delete(f"/contacts/{with_card['contactId']}/business-card")).status_code == 204
    # registrars renamed or deleted show as they are now
    await api.patch(f"/users/{clerk['userId']}", json={"fullname": "改名 後"})
    await api.patch(f"/divisions/{desk['divisionId']}", json={"divisionName": "総合受付"})
    assert (await api.delete(f"/users/{gone['userId']}")).status_code == 204
    assert (await api.delete(f"/contacts/{bare['contactId']}")).status_code == 204

    after = {c["contactId"]: c for c in await check_pages(api, storage)}
    assert bare["contactId"] not in after and len(after) == len(before) - 1
    e = after[edited["contactId"]]
    assert e["companyName"] == "新社" and e["comment"] == "" and e["remarks"] == '後から "追加"'
    assert e["updatedAt"] > edited["updatedAt"] and e["registeredAt"] == edited["registeredAt"]
    assert list(e)[-7:] == ["remarks", "contactId", "folderId", "registeredAt", "updatedAt", "registeredUser", "contactDetailsUrl"]
    assert after[unusual["contactId"]]["fullnameKana"] == UNUSUAL["fullnameKana"]
    assert after[unusual["contactId"]]["position"] == "\ud7ff\U0010ffff"
    assert after[by_clerk]["registeredUser"] == {
        "userId": clerk["userId"], "fullname": "改名 後", "loginId": "clerk",
        "divisions": [{"divisionId": desk["divisionId"], "divisionName": "総合受付"},
                      {"divisionId": sales["divisionId"], "divisionName": '営業 "本部"'}]}
    assert "registeredUser" not in after[by_gone]
    card = after[from_card["contactId"]]
    assert (card["ocrStatus"], card["ocrType"], card["comment"]) == ("CAN_SEND", "MACHINE", "読取")
    # X3's answer is the listed record
    r = await api.patch(f"/contacts/{plain['contactId']}", json={})
    assert r.status_code == 200 and r.json() == (await check_pages(api, storage))[-1]
    # pages that span: hasMore true, the last page false
    assert len(await check_pages(api, storage, page_size=3)) == len(after)


async def test_select_goes_through_the_records(api):
    c = await add(api, "選択", companyName="Keep", comment="x")
    r = await api.get("/contacts", params={"select": ["companyName", "updatedAt"]})
    assert r.json()["items"] == [{"contactId": c["contactId"], "companyName": "Keep", "updatedAt": c["updatedAt"]}]


def test_stored_record_keeps_column_fields_last_whatever_was_written():
    storage = Storage(":memory:", clock=time.time)
    try:
        conn = storage.db.conn
        conn.execute("INSERT INTO contacts (id, directory, folder_num, registered_at, updated_at, ocr_type, data) VALUES"
                     " (5, 'SHARED', 1, 'r', 'u', 'OPERATOR', '{\"contactId\":9,\"fullname\":\"a\",\"updatedAt\":\"old\"}')")
        expected = ('{"fullname":"a","contactId":5,"folderId":{"directory":"SHARED","folderNum":1},"registeredAt":"r",'
                    '"updatedAt":"u","ocrType":"OPERATOR"}')
        assert conn.execute("SELECT data FROM contacts").fetchone()[0] == expected
        conn.execute("UPDATE contacts SET ocr_status = 'CAN_SEND', ocr_type = NULL, folder_num = 2 WHERE id = 5")
        assert conn.execute("SELECT data FROM contacts").fetchone()[0] == (
            '{"fullname":"a","contactId":5,"folderId":{"directory":"SHARED","folderNum":2},"registeredAt":"r",'
            '"updatedAt":"u","ocrStatus":"CAN_SEND"}')
        conn.execute("UPDATE contacts SET data = '{\"remarks\":\"b\"}' WHERE id = 5")
        assert conn.execute("SELECT data FROM contacts").fetchone()[0].startswith('{"remarks":"b","contactId":5,')
    finally:
        storage.close()


def test_a_schema_3_database_gets_the_column_fields_in_its_records(tmp_path):
    path = str(tmp_path / "v3.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None)
    for version in (1, 2, 3):
        for statement in MIGRATIONS[version].split(";\n"):
            if statement.strip():
                conn.execute(statement)
    conn.execute("DELETE FROM meta")  # a schema 3 database was reindexed long ago
    conn.execute("INSERT INTO users (id, login_id, user_type, fullname, data) VALUES (1, 'u', 'REGULAR_USER', '登録', '{}')")
    old = '{"fullname":"三","headquartersLocation":{"address1":"京都\\n"},"comment":"\\"q\\""}'
    conn.execute("INSERT INTO contacts (id, directory, folder_num, registered_user_id, registered_at, updated_at, ocr_status,"
                 " data) VALUES (3, 'SHARED', 1, 1, '2024-01-01T00:00:00.000Z', '2024-01-02T00:00:00.000Z', 'CAN_SEND', ?)", (old,))
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    storage = Storage(path, clock=time.time)
    try:
        assert storage.db.conn.execute("PRAGMA user_version").fetchone()[0] == 4
        assert model_answer(storage, [3], False) == schema3_answer(storage, [3], False)
        record = old[:-1] + (',"contactId":3,"folderId":{"directory":"SHARED","folderNum":1},'
                             '"registeredAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-02T00:00:00.000Z","ocrStatus":"CAN_SEND"}')
        assert storage.get_contact_texts([3]) == [
            (3, record.encode(), '{"userId":1,"fullname":"登録","loginId":"u","divisions":[]}'.encode())]
        storage.update_contact(3, {"comment": None})
        assert storage.get_contacts([3])[0]["fullname"] == "三" and "comment" not in storage.get_contacts([3])[0]
    finally:
        storage.close()


def test_a_bulk_loaded_tenant_has_the_records_and_keeps_its_triggers():
    from corpdir.server.demo import generate_tenant

    storage = Storage(":memory:", clock=time.time)
    try:
        storage.load_tenant(generate_tenant(size=120, seed=4, contacts=200))
        conn = storage.db.conn
        ids = [r[0] for r in conn.execute("SELECT id FROM contacts ORDER BY id")]
        assert len(ids) == 200
        assert model_answer(storage, ids, False) == schema3_answer(storage, ids, False)
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")} == {
            "contacts_record_insert", "contacts_record_update"}
        storage.update_contact(ids[0], {"comment": "後で"})
        new = storage.create_contact({"folderId": SHARED, "fullname": "後から"}, None, 1)
        assert model_answer(storage, [ids[0], new], False) == schema3_answer(storage, [ids[0], new], False)
    finally:
        storage.close()
