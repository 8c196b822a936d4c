import os
import stat

from corpdir.paths import cache_file
from corpdir.cache.schema import SCHEMA_VERSION
from corpdir.cache.store import CacheStore


def who(store, number):
    """The one answer (corpdir.service.identify) from this cache's reader."""
    from corpdir.service.identify import read_number

    return read_number(number, store.holders, store.region)


def test_lookup_finds_same_person_however_written(store):
    for typed in ["+81 3-1234-5678", "03(1234)5678", "0312345678", "03-1234-5678"]:
        answer = who(store, typed)
        # N1's rule: a user's number before a contact holding the same number
        assert (answer.kind, answer.id) == ("person", 1)
    assert who(store, "1234").name == "山田 太郎"  # extension as-is
    assert who(store, "+81 90 5555 1234").id == 3
    assert not who(store, "0120-000-000").found
    assert who(store, "+81 90 5555 1234").paths == ("営業本部 › 第一営業部 › 1課",)  # by path


def test_division_members_with_and_without_subdivisions(store):
    assert store.count_users(10) == 1
    assert store.count_users(9, include_sub=True) == 3
    assert [u.userId for u in store.list_users(9, include_sub=True, order_by="sortScore", descending=True)] == [2, 1, 3]
    assert [d.divisionId for d in store.child_divisions(None)] == [9]
    assert [d.divisionId for d in store.child_divisions(9)] == [10, 11]


def test_window_of_rows_by_index(store):
    first = store.list_users(order_by="sortScore", offset=0, limit=2)
    rest = store.list_users(order_by="sortScore", offset=2, limit=10)
    assert [u.userId for u in first + rest] == [3, 1, 2, 4]


def test_records_remember_when_fetched(store):
    store.put_users([{"userId": 50, "fullname": "x"}], fetched_at=1000.0)
    cached = store.user(50)
    assert cached.fetched_at == 1000.0 and cached.age(now=1060.0) == 60.0
    assert store.synced_at("users") is None
    store.mark_synced("users", 2000.0)
    assert store.synced_at("users") == 2000.0


def test_cache_file_is_private_and_named_without_the_key(tmp_path):
    path = cache_file("http://127.0.0.1:8765/v1", "sk-very-secret", tmp_path)
    assert "sk-very-secret" not in str(path)
    assert path != cache_file("http://127.0.0.1:8765/v1", "another-key", tmp_path)
    store = CacheStore(path)
    store.put_users([{"userId": 1, "fullname": "a"}])
    store.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert b"sk-very-secret" not in path.read_bytes()


def cache_at_schema(path, version: int):
    """A connection to a new cache file as corpdir wrote it at schema ``version``."""
    import sqlite3

    from corpdir.cache.schema import MIGRATIONS

    conn = sqlite3.connect(path)
    for step in range(1, version + 1):
        conn.executescript(MIGRATIONS[step])
    conn.execute(f"PRAGMA user_version = {version}")
    return conn


def test_reopen_keeps_data_and_schema_version(tmp_path):
    path = tmp_path / "c.sqlite3"
    s = CacheStore(path)
    s.put_users([{"userId": 1, "fullname": "山田 太郎"}])
    s.close()
    s = CacheStore(path)
    assert s.user(1).record.fullname == "山田 太郎"
    assert s._one("PRAGMA user_version")[0] == SCHEMA_VERSION


def test_an_older_cache_is_migrated_on_open_and_keeps_its_data(tmp_path):
    import sqlite3

    from corpdir.cache.schema import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[1] + "PRAGMA user_version = 1;")
    conn.execute("INSERT INTO sync_state(resource, generation, next_page) VALUES ('users', 3, 7)")
    conn.commit()
    conn.close()
    store = CacheStore(path)
    assert store._one("PRAGMA user_version")[0] == SCHEMA_VERSION
    point = store.checkpoint("users")
    assert (point.generation, point.next_page, point.page_size) == (3, 7, 100)


def test_a_schema_6_cache_keeps_its_deflate_records_readable_and_writes_new_ones_with_zstd(tmp_path):
    """Schema 6 compressed records with deflate and a preset dictionary. After the
    migration those blobs read back unchanged, an edit of one and a new page are written
    with a trained Zstandard dictionary, and search and caller-ID find both."""
    import zlib

    from corpdir.cache import blobs
    from corpdir.cache.indexing import USER, decode_terms, document, encode_terms
    from corpdir.cache.search import search
    from cache_data import DIVISIONS, USERS

    conn = cache_at_schema(tmp_path / "v6.sqlite3", 6)
    path = tmp_path / "v6.sqlite3"
    zdict = b"".join(blobs.dumps(u) for u in USERS)
    conn.execute("INSERT INTO zdicts(id, kind, data) VALUES (1, 'users', ?)", (zdict,))
    for u in USERS:  # as schema 6 wrote them: dictionary 1, raw deflate
        packer = zlib.compressobj(6, zlib.DEFLATED, -15, zdict=zdict)
        blob = b"\x01" + packer.compress(blobs.dumps(u)) + packer.flush()
        terms = encode_terms(USER.terms(u, {}))
        conn.execute("INSERT INTO users(id, data, terms, reading, sort_score, fetched_at, generation) VALUES (?, ?, ?, '', 0, 1.0, 1)",
                     (u["userId"], blob, terms))
        conn.executemany("INSERT INTO user_terms(term, score, id, field) VALUES (?, 0, ?, ?)",
                         [(term, u["userId"], code) for term, code, _ in decode_terms(terms)])
        conn.execute("INSERT INTO user_fts(rowid, doc) VALUES (?, ?)", (u["userId"], document(terms)))
    conn.commit()
    conn.close()
    store = CacheStore(path)
    store.put_divisions(DIVISIONS)
    assert store._one("PRAGMA user_version")[0] == SCHEMA_VERSION
    assert [store.user(u["userId"]).record.fullname for u in USERS] == [u["fullname"] for u in USERS]
    edited = {**USERS[0], "position": "受付係長"}
    many = [{**USERS[1], "userId": 5000 + i, "fullname": f"新人 {i:03d}", "extensionNum": f"{7000 + i}"} for i in range(60)]
    store.put_users([edited, *many])
    codecs = dict(store._rows("SELECT id, codec FROM zdicts"))
    assert codecs[1] == "deflate" and "zstd" in codecs.values()
    assert store._one("SELECT data FROM users WHERE id = ?", (edited["userId"],))[0][0] != 1  # written anew: not deflate
    assert store.user(edited["userId"]).record.position == "受付係長"
    assert store.user(USERS[1]["userId"]).record.fullname == USERS[1]["fullname"]  # untouched: still deflate, still read
    assert store.user(5059).record.fullname == "新人 059"
    assert [(h.kind, h.id) for h in search(store, "新人 059")][:1] == [("user", 5059)]
    assert who(store, "7059").id == 5059


def test_a_schema_5_cache_moves_its_records_into_the_compact_tables_on_open(tmp_path):
    """Records, their fetch times and sync generations survive; search and caller-ID work."""
    import json

    from corpdir.cache.search import search
    from cache_data import CONTACTS, DIVISIONS, USERS

    conn = cache_at_schema(tmp_path / "v5.sqlite3", 5)
    path = tmp_path / "v5.sqlite3"
    for d in DIVISIONS:
        conn.execute("INSERT INTO divisions(id, parent_id, data, name, fetched_at) VALUES (?, ?, ?, ?, 1.0)",
                     (d["divisionId"], d.get("parentDivisionId"), json.dumps(d), d["divisionName"]))
    for u in USERS:
        conn.execute("INSERT INTO users(id, data, fullname, fetched_at, generation) VALUES (?, ?, ?, ?, ?)",
                     (u["userId"], json.dumps(u, ensure_ascii=False), u["fullname"], 1000.0 + u["userId"], 4))
    for c in CONTACTS:
        conn.execute("INSERT INTO contacts(id, data, fullname, fetched_at, generation) VALUES (?, ?, ?, 2000.0, 2)",
                     (c["contactId"], json.dumps(c, ensure_ascii=False), c["fullname"]))
    conn.commit()
    conn.close()
    store = CacheStore(path)
    assert store._one("PRAGMA user_version")[0] == SCHEMA_VERSION
    assert store.user(2).record.fullname == "山田川 花子" and store.user(2).fetched_at == 1002.0
    assert store.max_generation("users") == 4 and store.max_generation("contacts") == 2
    assert [(h.kind, h.id) for h in search(store, "やまだ")][:2] == [("user", 1), ("user", 2)]
    assert who(store, "03-1234-5678").id == 1
    assert [(h.kind, h.id) for h in search(store, "さとう")] == [("contact", 7)]
    assert {r[0] for r in store._rows("SELECT name FROM sqlite_master")}.isdisjoint({"users_v5", "contacts_v5"})
    store.close()
    store = CacheStore(path)  # opened again: nothing moved twice
    assert store.count_users() == len(USERS) and store.count_contacts() == len(CONTACTS)
    store.close()


def test_a_newer_cache_is_refused_with_a_clear_message(tmp_path):
    import sqlite3

    import pytest

    path = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(RuntimeError, match="newer"):
        CacheStore(path)


def test_a_failed_write_leaves_nothing_half_written(store):
    before = store.count_users()
    try:
        store.put_users([{"userId": 60, "fullname": "ok"}, {"fullname": "no id"}])
    except KeyError:
        pass
    assert store.count_users() == before and store.user(60) is None


def test_region_rules_of_an_older_cache_are_brought_up_to_date(tmp_path):
    """A cache written before a rule existed (``shortest``) gets the full rules on the next
    open: `corpdir lookup` reads them from there, and extensions then need no phonenumbers."""
    import json

    path = tmp_path / "old.sqlite3"
    CacheStore(path).close()
    store = CacheStore(path)
    rules = json.loads(store._conn.execute("SELECT value FROM meta WHERE key = 'phone_rules:JP'").fetchone()[0])
    assert rules["shortest"] > 0
    older = {k: v for k, v in rules.items() if k != "shortest"}
    store._conn.execute("UPDATE meta SET value = ? WHERE key = 'phone_rules:JP'", (json.dumps(older),))
    store.close()
    store = CacheStore(path)
    again = json.loads(store._conn.execute("SELECT value FROM meta WHERE key = 'phone_rules:JP'").fetchone()[0])
    store.close()
    assert again == rules


def test_a_first_record_gets_a_raw_dictionary_and_the_first_page_a_trained_one(tmp_path):
    """One record saved before any sync is too little to train on; the first page of a
    sync replaces its dictionary, and the record written with the first stays readable."""
    from cache_data import USERS
    from corpdir.cache.blobs import dumps

    store = CacheStore(tmp_path / "c.sqlite3")
    store.put_users([USERS[0]])
    assert [r[0] for r in store._rows("SELECT codec FROM zdicts")] == ["zstd-raw"]
    page = [{**USERS[1], "userId": 100 + i, "fullname": f"社員 {i:03d}", "email1": f"staff{i}@example.co.jp"} for i in range(100)]
    store.put_users(page)
    assert [tuple(r) for r in store._rows("SELECT codec, samples FROM zdicts ORDER BY id")] == [("zstd-raw", 1), ("zstd", 100)]
    assert store.user(USERS[0]["userId"]).record.fullname == USERS[0]["fullname"]
    assert [store.user(100 + i).record.email1 for i in (0, 99)] == ["staff0@example.co.jp", "staff99@example.co.jp"]
    blob_bytes = store._one("SELECT AVG(length(data)) FROM users WHERE id >= 100")[0]
    json_bytes = sum(len(dumps(u)) for u in page) / len(page)
    assert blob_bytes < json_bytes / 3  # the trained dictionary does its job
    store.close()


def test_a_dictionary_made_in_a_rolled_back_write_is_gone_with_it(tmp_path):
    """A write that fails after its page trained a dictionary leaves no dictionary and no
    record behind; the next write trains one anew, and another process reads its records."""
    import pytest

    from cache_data import USERS

    path = tmp_path / "c.sqlite3"
    store = CacheStore(path)
    page = [{**USERS[1], "userId": 100 + i, "fullname": f"社員 {i:03d}"} for i in range(40)]
    with pytest.raises(RuntimeError), store.transaction():
        store.put_users(page)
        raise RuntimeError("the page's checkpoint could not be saved")
    assert store._rows("SELECT id FROM zdicts") == [] and store.count_users() == 0
    store.put_users(page)
    assert [tuple(r) for r in store._rows("SELECT id, codec FROM zdicts")] == [(1, "zstd")]
    other = CacheStore(path)
    assert [other.user(100 + i).record.fullname for i in (0, 39)] == ["社員 000", "社員 039"]
    other.close()
    store.close()


def test_a_writer_takes_up_the_dictionary_another_process_made(tmp_path):
    """A TUI that wrote one record (a raw dictionary) while a sync in another process made a
    trained one does not train a worse one from its own next small page."""
    from cache_data import USERS

    path = tmp_path / "c.sqlite3"
    tui, sync = CacheStore(path), CacheStore(path)
    tui.put_users([USERS[0]])
    sync.put_users([{**USERS[1], "userId": 100 + i, "fullname": f"社員 {i:03d}"} for i in range(200)])
    tui.put_users([{**USERS[1], "userId": 500 + i, "fullname": f"来客 {i:03d}"} for i in range(30)])
    assert [tuple(r) for r in tui._rows("SELECT codec, samples FROM zdicts ORDER BY id")] == [("zstd-raw", 1), ("zstd", 200)]
    assert sync.user(529).record.fullname == "来客 029"
    tui.close()
    sync.close()


BRANCHES = [  # (name, reading): by code point 名古屋 < 大阪 < 札幌 < 福岡; read, おおさか < さっぽろ < なごや < ふくおか
    ("名古屋支社", "ナゴヤシシャ"), ("大阪支社", "オオサカシシャ"), ("札幌支社", "サッポロシシャ"), ("福岡支社", "フクオカシシャ"),
]


def test_sibling_divisions_are_ordered_by_how_their_names_are_read():
    store = CacheStore(":memory:")
    store.put_divisions([{"divisionId": 1, "divisionName": "本社", "divisionNameKana": "ホンシャ", "sortScore": 10}]
                        + [{"divisionId": 2 + i, "divisionName": name, "divisionNameKana": kana}
                           for i, (name, kana) in enumerate(BRANCHES)]
                        + [{"divisionId": 9, "divisionName": "秋田支社"}])  # no kana: pykakasi reads あきた
    names = [d.divisionName for d in store.child_divisions(None)]
    assert names == ["本社", "秋田支社", "大阪支社", "札幌支社", "名古屋支社", "福岡支社"]  # sortScore first, then gojūon
    assert [d.divisionName for d, _ in sorted(store.all_divisions(), key=lambda row: row[1])][:2] == ["秋田支社", "大阪支社"]


def test_a_schema_7_cache_gets_its_divisions_readings_when_opened(tmp_path):
    import json


    path = tmp_path / "v7.sqlite3"
    conn = cache_at_schema(path, 7)
    conn.executemany("INSERT INTO divisions(id, parent_id, data, name, sort_score, fetched_at) VALUES (?, NULL, ?, ?, 0, 1.0)",
                     [(2 + i, json.dumps({"divisionId": 2 + i, "divisionName": name, "divisionNameKana": kana}), name)
                      for i, (name, kana) in enumerate(BRANCHES)])
    conn.commit()
    conn.close()
    store = CacheStore(path)
    assert store._one("PRAGMA user_version")[0] == SCHEMA_VERSION
    assert [d.divisionName for d in store.child_divisions(None)] == ["大阪支社", "札幌支社", "名古屋支社", "福岡支社"]


def test_a_damaged_cache_file_is_set_aside_and_a_new_one_made(tmp_path, caplog):
    """A cache that is not a database (a disk that filled mid-write, a file copied over it)
    ended every start in a traceback; it is a copy of the service's data: moved aside, 0600
    as it was, and a new one made, with a warning naming both."""
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"garbage, not SQLite " * 500)
    path.chmod(0o600)
    store = CacheStore(path)
    assert store.set_aside == f"{path}.damaged"
    assert (tmp_path / "c.sqlite3.damaged").read_bytes().startswith(b"garbage")
    assert stat.S_IMODE(os.stat(store.set_aside).st_mode) == 0o600
    store.put_users([{"userId": 1, "fullname": "山田 太郎"}])
    assert store.user(1).record.fullname == "山田 太郎"
    assert any("set aside" in r.getMessage() and str(path) in r.getMessage() for r in caplog.records)
    store.close()
    assert CacheStore(path).set_aside is None  # the new one reads


def test_a_damaged_cache_another_process_already_replaced_is_left_alone(tmp_path):
    """Two starts at once (SSH sessions of a burst) both find the file damaged: the second
    must not set aside the new cache the first has made in its place."""
    from corpdir.cache.store import _set_aside

    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"garbage")
    old_inode = path.stat().st_ino
    first = _set_aside(str(path), ValueError("file is not a database"), old_inode)
    fresh = CacheStore(path)
    fresh.put_users([{"userId": 1, "fullname": "山田 太郎"}])
    assert first == f"{path}.damaged"
    assert _set_aside(str(path), ValueError("file is not a database"), old_inode) is None
    assert fresh.user(1).record.fullname == "山田 太郎" and (tmp_path / "c.sqlite3.damaged").read_bytes() == b"garbage"
