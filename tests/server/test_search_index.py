"""The search index: words of every length answered from the index, the same records as a
plain substring scan, on both plans (gathered ids and row-by-row checks), kept right
through edits, deletes and division renames, and rebuilt by the schema 2 migration."""

from __future__ import annotations

import itertools
import sqlite3
import time

import pytest

from corpdir.phone import digits, match_key
from corpdir.server.storage import search
from corpdir.server.storage import Storage
from corpdir.server.storage.schema import MIGRATIONS
from corpdir.spec.operations import validate_query
from corpdir.spec.user import USER_PHONE_FIELDS
from corpdir.spec.variants import get_variant
from tests.server.conftest import make_user

VARIANT = get_variant("C")
SHARED = {"directory": "SHARED", "folderNum": 1}

PEOPLE = [
    dict(loginId="wang", fullname="王伟", fullnameKana="ワン ウェイ", fullnameAlphabet="Wang Wei", position="課長",
         phoneNum="03-1234-5678", email1="wang@example.com"),
    dict(loginId="kosaki", fullname="小山崎太", fullnameKana="コヤマザキ フトシ", employeeNum="E0042", post="受付"),
    dict(loginId="yamazaki", fullname="山崎 花子", fullnameKana="ヤマザキ ハナコ", extensionNum="605701",
         positionAlphabet="Manager"),
    dict(loginId="yamada", fullname="山田 太郎", fullnameKana="ヤマダ タロウ", mobileNum="090-8765-4321",
         email2="Taro.Yamada@Example.JP"),
    dict(loginId="ito", fullname="伊藤", fullnameKana="イトウ", position="部長", phoneNum="+81-6-5555-0000"),
]


def user_texts(user: dict, divisions: list[str]) -> list[str]:
    """What spec 4.1 says freeWords searches, lowercased: the reference for the index."""
    phones = [user[f] for f in USER_PHONE_FIELDS if user.get(f)]
    fields = ("fullname", "fullnameKana", "fullnameAlphabet", "employeeNum", "position", "positionAlphabet", "post",
              "email1", "email2")
    return [str(user[f]).lower() for f in fields if user.get(f)] + phones + [digits(p) for p in phones] + [d.lower() for d in divisions]


@pytest.fixture
async def people(app, api):
    sales = (await api.post("/divisions", json={"divisionCode": "S", "divisionName": "営業本部"})).json()
    users = [await make_user(api, p["loginId"], divisionIds=[sales["divisionId"]] if i % 2 else [], **{k: v for k, v in p.items() if k != "loginId"})
             for i, p in enumerate(PEOPLE)]
    return {u["loginId"]: (p, ["営業本部"] if i % 2 else []) for i, (u, p) in enumerate(zip(users, PEOPLE))}


def found(storage: Storage, **params) -> set[str]:
    q = validate_query("U1", {"pageSize": "100", **params}, variant=VARIANT)
    ids, _ = storage.list_user_ids(q)
    return {u["loginId"] for u in storage.get_users(ids)} - {"admin"}


def expected(people: dict, words: list[str]) -> set[str]:
    return {login for login, (user, divisions) in people.items()
            if all(any(w.lower() in t for t in user_texts(user, divisions)) for w in words)}


def candidate_words(people: dict) -> list[str]:
    """Every 1-, 2- and 3-character substring of the people's texts, and some that are absent."""
    words = {"伟", "山崎", "ザキ", "ya", "56", "e0", "zz", "崎太", "無い", "ヮ", "営業", "本部"}
    for user, divisions in people.values():
        for text in user_texts(user, divisions):
            for n in (1, 2, 3):
                words.update(text[i:i + n].strip() for i in range(len(text) - n + 1))
    return sorted(w for w in words if w)


PLANS = pytest.mark.parametrize("plan", ["gathered", "row-by-row", "gathered-in-full"])


def use_plan(monkeypatch, plan: str) -> None:
    """gathered: ids from the index (few records a word); row-by-row: DENSE=1 makes nearly
    every word common, checked along the order; gathered-in-full: WALK=1 also makes that
    walk give up, so common words' records are gathered by subqueries on the index."""
    if plan != "gathered":
        monkeypatch.setattr(search, "DENSE", 1)
    if plan == "gathered-in-full":
        monkeypatch.setattr(search, "WALK", 1)


@PLANS
async def test_every_short_and_long_word_finds_what_a_substring_scan_finds(app, people, monkeypatch, plan):
    use_plan(monkeypatch, plan)
    storage = app.state.storage
    for word in candidate_words(people):
        assert found(storage, freeWords=[word]) == expected(people, [word]), word


@PLANS
async def test_words_combine_with_and_whatever_their_lengths(app, people, monkeypatch, plan):
    use_plan(monkeypatch, plan)
    storage = app.state.storage
    words = ["山", "崎", "ヤマ", "ザキ", "山崎", "花子", "yamada", "5", "56", "1234", "部長", "営業", "e0042"]
    for pair in itertools.combinations(words, 2):
        assert found(storage, freeWords=list(pair)) == expected(people, list(pair)), pair


async def test_cjk_one_and_two_character_substrings(app, people):
    storage = app.state.storage
    assert found(storage, freeWords=["伟"]) == {"wang"}
    assert found(storage, freeWords=["山崎"]) == {"kosaki", "yamazaki"}  # inside '小山崎太' too
    assert found(storage, freeWords=["崎太"]) == {"kosaki"}  # the last two characters of a name
    assert found(storage, freeWords=["藤"]) == {"ito"}  # a one-character name's last character
    assert found(storage, fullname="王") == {"wang"}
    assert found(storage, fullnameKana="ザキ") == {"kosaki", "yamazaki"}
    assert found(storage, fullnameKana="ン") == {"wang"}  # column filters look at their column only
    assert found(storage, fullname="ザキ") == set()


async def test_ascii_digits_and_case(app, people):
    storage = app.state.storage
    assert found(storage, freeWords=["WEI"]) == {"wang"}
    assert found(storage, freeWords=["jp"]) == {"yamada"}  # e-mail, case folded
    assert found(storage, freeWords=["78"]) == {"wang"}  # digits of '03-1234-5678'
    assert found(storage, freeWords=["4-5"]) == {"wang"}  # the number as written
    assert found(storage, freeWords=["05"]) == {"yamazaki"}  # extension
    assert found(storage, freeWords=["E0"]) == {"kosaki"}  # employeeNum


async def test_edits_deletes_and_renames_keep_the_index_right(app, api, people):
    storage = app.state.storage
    users = {u["loginId"]: u["userId"] for u in (await api.get("/users", params={"pageSize": 50})).json()["items"]}
    r = await api.patch(f"/users/{users['yamazaki']}", json={"fullname": "川口 花子"})  # partial edit of the name
    assert r.status_code == 200
    assert found(storage, freeWords=["山崎"]) == {"kosaki"}
    assert found(storage, freeWords=["川口"]) == found(storage, freeWords=["川"]) == {"yamazaki"}
    assert found(storage, freeWords=["ザキ"]) == {"kosaki", "yamazaki"}  # the kana was not sent: kept
    assert found(storage, freeWords=["605701"]) == {"yamazaki"}
    await api.patch(f"/users/{users['yamazaki']}", json={"extensionNum": "7788"})
    assert found(storage, freeWords=["05"]) == set() and found(storage, freeWords=["77"]) == {"yamazaki"}
    assert (await api.delete(f"/users/{users['kosaki']}")).status_code == 204
    assert found(storage, freeWords=["山崎"]) == found(storage, freeWords=["崎太"]) == set()
    division = (await api.get("/divisions")).json()["items"][0]["divisionId"]
    await api.patch(f"/divisions/{division}", json={"divisionName": "販売部"})
    assert found(storage, freeWords=["営"]) == set()
    assert found(storage, freeWords=["販売"]) == {"yamada"}  # kosaki, the other member, is gone


async def contact(api, fullname, **kw):
    r = await api.post("/contacts", json={"folderId": SHARED, "fullname": fullname, **kw})
    assert r.status_code == 201, r.text
    return r.json()


async def contact_names(api, **params):
    r = await api.get("/contacts", params={"pageSize": 500, **params})
    assert r.status_code == 200, r.text
    return sorted(c["fullname"] for c in r.json()["items"])


@PLANS
async def test_contact_filters_of_every_length_and_edits(api, monkeypatch, plan):
    use_plan(monkeypatch, plan)
    a = await contact(api, "佐藤 一", companyName="株式会社吉田食品", divisionName="営業部", phoneNum="06-1111-2222")
    await contact(api, "吉田 二郎", companyName="三浦商事", fullnameKana="ヨシダ ジロウ", email1="jiro@miura.example")
    await contact(api, "Lee Ann", companyName="田中", position="吉田担当")
    assert await contact_names(api, companyName="吉田") == ["佐藤 一"]  # not the fullname 吉田 二郎
    assert await contact_names(api, companyName="田") == ["Lee Ann", "佐藤 一"]
    assert await contact_names(api, companyName="吉田食品") == ["佐藤 一"]
    assert await contact_names(api, freeWords=["吉田"]) == ["Lee Ann", "佐藤 一", "吉田 二郎"]
    assert await contact_names(api, freeWords=["吉田", "miura"]) == ["吉田 二郎"]
    assert await contact_names(api, freeWords=["22"]) == ["佐藤 一"]
    assert await contact_names(api, divisionName="営", fullname="藤") == ["佐藤 一"]
    assert await contact_names(api, freeWords=["吉田"], identified="true") == ["Lee Ann", "佐藤 一", "吉田 二郎"]
    assert await contact_names(api, freeWords=["田", "miura"], identified="true") == ["吉田 二郎"]
    await api.patch(f"/contacts/{a['contactId']}", json={"companyName": "北"})
    assert await contact_names(api, companyName="吉田") == []
    assert await contact_names(api, companyName="北") == ["佐藤 一"]
    assert await contact_names(api, divisionName="営業") == ["佐藤 一"]  # kept: not sent
    assert (await api.delete(f"/contacts/{a['contactId']}")).status_code == 204
    assert await contact_names(api, freeWords=["北"]) == []


async def test_x1_spliced_answer_is_the_same_record_as_x3s(api):
    c = await contact(api, "Splice Test", comment="note", companyName="Keep", headquartersLocation={"address1": "千代田区"})
    edited = (await api.patch(f"/contacts/{c['contactId']}", json={"comment": "edited"})).json()
    listed = (await api.get("/contacts")).json()["items"]
    assert listed == [edited]
    selected = (await api.get("/contacts", params={"select": ["companyName", "registeredUser"]})).json()["items"]
    assert selected == [{"contactId": c["contactId"], "companyName": "Keep", "registeredUser": edited["registeredUser"]}]


def test_a_schema_1_database_is_migrated_and_reindexed(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[1].split(";\n"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO users (id, login_id, user_type, fullname, data) VALUES (1, 'old', 'REGULAR_USER', '王伟',"
                 " '{\"loginId\": \"old\", \"fullname\": \"王伟\", \"phoneNum\": \"03-1234-5678\"}')")
    conn.execute("INSERT INTO contacts (id, directory, folder_num, registered_at, updated_at, data) VALUES"
                 " (1, 'SHARED', 1, 'x', 'x', '{\"fullname\": \"旧\", \"comment\": null}')")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    storage = Storage(path, clock=time.time)
    try:
        assert found(storage, freeWords=["伟"]) == {"old"}
        assert found(storage, freeWords=["5678"]) == {"old"}
        record = '{"fullname":"旧","contactId":1,"folderId":{"directory":"SHARED","folderNum":1},"registeredAt":"x","updatedAt":"x"}'
        assert storage.get_contact_texts([1]) == [(1, record.encode(), None)]
        assert storage.db.conn.execute("SELECT data FROM contacts").fetchone()[0] == record  # no nulls, column fields merged
        assert storage.get_meta("reindex_search") is None
    finally:
        storage.close()


def test_phone_keys_of_short_digit_strings_agree_with_match_key():
    from corpdir.server.demo import generate_tenant

    storage = Storage(":memory:", clock=time.time)
    tenant = generate_tenant(size=300, seed=3)
    numbers = {u[f] for u in tenant.users for f in USER_PHONE_FIELDS if u.get(f)}
    numbers |= {"1234", "605701", "0605701", "0101234", "010812345", "8112345", "8131234567", "0312345678", "1234567",
                "12345678", "０１２３", "007", "+8131234", "1"}
    for number in numbers:
        assert storage.key(number) == match_key(number, "JP"), number
    storage.close()


async def test_every_plan_gives_the_same_pages_in_the_same_order(app, people, monkeypatch):
    storage = app.state.storage

    def pages(**params) -> list[list[str]]:
        out = []
        for page in range(4):
            q = validate_query("U1", {"pageSize": "2", "page": str(page), **params}, variant=VARIANT)
            ids, _ = storage.list_user_ids(q)
            out.append([u["loginId"] for u in storage.get_users(ids)])
        return out

    cases = [dict(freeWords=["山"]), dict(freeWords=["a"], orderDirection="desc"), dict(freeWords=["ヤ", "タ"], orderBy="sortScore"),
             dict(freeWords=["yamada"]), dict(fullnameKana="ウ", orderBy="employeeNum", orderDirection="desc")]
    reference = [pages(**case) for case in cases]
    assert any(len(p[0]) == 2 and p[1] for p in reference)  # some cases do span pages
    for plan in ("row-by-row", "gathered-in-full"):
        with monkeypatch.context() as m:
            use_plan(m, plan)
            assert [pages(**case) for case in cases] == reference, plan
