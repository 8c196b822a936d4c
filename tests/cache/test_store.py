import os
import stat

from corpdir.paths import cache_file
from corpdir.cache.schema import SCHEMA_VERSION
from corpdir.cache.store import CacheStore


def test_lookup_finds_same_person_however_written(store):
    for typed in ["+81 3-1234-5678", "03(1234)5678", "0312345678", "03-1234-5678"]:
        items = store.lookup_number(typed)
        # N1's rule: a user's number before a contact holding the same number
        assert [(i.phoneNumContactType, i.userId or i.contactId) for i in items] == [("USER", 1)]
    assert store.lookup_number("1234")[0].displayName == "山田 太郎"  # extension as-is
    assert store.lookup_number("+81 90 5555 1234")[0].userId == 3
    assert store.lookup_number("0120-000-000") == []
    assert store.lookup_number("+81 90 5555 1234")[0].divisionNames == ["営業本部 › 第一営業部 › 1課"]  # by path


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


def test_a_schema_5_cache_moves_its_records_into_the_compact_tables_on_open(tmp_path):
    """Records, their fetch times and sync generations survive; search and caller-ID work."""
    import json
    import sqlite3

    from corpdir.cache.schema import MIGRATIONS
    from corpdir.cache.search import search
    from cache_data import CONTACTS, DIVISIONS, USERS

    path = tmp_path / "v5.sqlite3"
    conn = sqlite3.connect(path)
    for version in range(1, 6):
        conn.executescript(MIGRATIONS[version])
    conn.execute("PRAGMA user_version = 5")
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
    assert [item["userId"] for item in store.identify("03-1234-5678")] == [1]
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
