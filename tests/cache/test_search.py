import pytest

from corpdir.cache.search import EXACT, PREFIX, SUBSTRING, Searcher, search
from corpdir.cache.store import CacheStore


def ids(hits):
    return [(h.kind, h.id) for h in hits]


@pytest.mark.parametrize("typed", ["やまだ", "ヤマダ", "ﾔﾏﾀﾞ", "yamada", "YAMADA", "ＹＡＭＡＤＡ"])
def test_folding_finds_yamada_however_typed(store, typed):
    hits = search(store, typed)
    assert ("user", 1) in ids(hits)
    assert hits[0].id == 1 and hits[0].rank == EXACT


def test_ranking_exact_then_prefix_then_substring_then_sort_score(store):
    hits = search(store, "やまだ")
    # 1: exact kana part; 2: prefix 'ヤマダガワ'; 4: substring 'コヤマダ' (sortScore 100 does not beat rank)
    assert ids(hits) == [("user", 1), ("user", 2), ("user", 4)]
    assert [h.rank for h in hits] == [EXACT, PREFIX, SUBSTRING]


def test_sort_score_orders_within_a_tier(store):
    hits = search(store, "山田")  # prefix of 山田太郎(5) and 山田川花子(9); exact part of user 1
    assert ids(hits)[:2] == [("user", 1), ("user", 2)]
    hits = search(store, "田")  # 1 char: prefix only; nobody's part starts with 田
    assert hits == []


@pytest.mark.parametrize("typed,expected", [
    ("123", [("user", 1), ("user", 3), ("contact", 7)]),  # extension prefix first, then runs by sortScore
    ("5678", [("user", 1), ("contact", 7)]),
    ("1234-5678", [("user", 1), ("contact", 7)]),
    ("１２３４−５６７８", [("user", 1), ("contact", 7)]),  # full width, a minus for the hyphen
    ("１２３４ー５６７８", [("user", 1), ("contact", 7)]),  # the IME's long-vowel mark for the hyphen
])
def test_phone_digit_runs_anywhere(store, typed, expected):
    assert ids(search(store, typed)) == expected


def test_cjk_substring_of_three_or_more_and_exact_two(store):
    assert ids(search(store, "王伟")) == [("user", 3)]
    assert ids(search(store, "テスト商")) == [("contact", 7)]
    assert ("user", 1) in ids(search(store, "第一営業"))


@pytest.mark.parametrize("typed,field", [("e0001", "employeeNum"), ("taro.yamada", "email1"), ("部長", "position"), ("株式会社", "companyName")])
def test_other_fields(store, typed, field):
    assert search(store, typed)[0].field == field


def test_kinds_filter(store):
    assert ids(search(store, "123", kinds=("contact",))) == [("contact", 7)]


def test_searcher_narrows_previous_hits_when_query_grows(store, monkeypatch):
    searcher = Searcher(store)
    assert ids(searcher.search("やまだ")) == [("user", 1), ("user", 2), ("user", 4)]
    calls = []
    import corpdir.cache.search as mod
    monkeypatch.setattr(mod, "_candidates", lambda *a, **k: calls.append(a) or mod._Candidates())
    assert ids(searcher.search("やまだが")) == [("user", 2)]
    assert calls == []  # answered from the previous candidates
    searcher.search("山")  # a different query goes to SQLite again
    assert len(calls) == 1


def test_updates_and_deletes_reindex(store):
    store.put_users([{"userId": 1, "fullname": "鈴木 太郎", "fullnameKana": "スズキ タロウ"}])
    assert ("user", 1) not in ids(search(store, "やまだ"))
    assert ids(search(store, "すずき")) == [("user", 1)]
    store.delete_users([1])
    assert search(store, "すずき") == []


def test_a_short_answer_skips_the_substring_tier_without_changing_it(store):
    # limit 2: 'やまだ' has two exact/prefix hits, so the substring hit (小山田, rank 3) can't show
    assert ids(search(store, "やまだ", limit=2)) == ids(search(store, "やまだ", limit=1000))[:2]
    assert ids(search(store, "やまだ", limit=3)) == [("user", 1), ("user", 2), ("user", 4)]  # still found when room


def test_the_answer_is_the_same_whatever_the_limit_on_the_demo_tenant(tmp_path):
    from corpdir.cache.store import CacheStore
    from service_fixtures import demo_tenant

    tenant = demo_tenant(400)
    s = CacheStore(":memory:")
    s.put_users(tenant.users)
    typed = ["た", "ta", "やま", "yamada", "田中", "佐藤", "03", "090", "1課", "営業", "a", "kobayashi", "こばやし"]
    for query in typed:
        full = ids(search(s, query, kinds=("user",), limit=100_000))
        for limit in (1, 5, 20, 50):
            assert ids(search(s, query, kinds=("user",), limit=limit)) == full[:limit], (query, limit)
    s.close()


def test_romaji_matches_within_a_name_part_not_across_parts():
    s = CacheStore(":memory:")
    s.put_users([
        {"userId": 1, "fullname": "田中 太郎", "fullnameKana": "タナカ タロウ", "fullnameAlphabet": "Taro Tanaka"},
        {"userId": 2, "fullname": "中島 翔太", "fullnameKana": "ナカジマ ショウタ", "fullnameAlphabet": "Shota Nakajima"},
        {"userId": 3, "fullname": "北田中 健", "fullnameKana": "キタタナカ ケン", "fullnameAlphabet": "Ken Kitatanaka"},
    ])
    for typed in ("tanaka", "Tanaka", "たなか"):
        assert ids(search(s, typed)) == [("user", 1), ("user", 3)]  # 3: inside one part (キタタナカ)
    assert ids(search(s, "山田太郎")) == []
    assert ids(search(s, "たなかたろう")) == [("user", 1)]  # the whole name typed without its space
    s.close()


def test_a_division_name_finds_its_people_and_those_of_divisions_under_it(store):
    # 営業本部 > 第一営業部 > 1課: user 1 is in 第一営業部, user 3 in 1課, user 2 in 第二営業部
    assert sorted(ids(search(store, "営業本部"))) == [("user", 1), ("user", 2), ("user", 3)]
    assert sorted(ids(search(store, "第一営業部"))) == [("user", 1), ("user", 3)]
    assert ids(search(store, "1課")) == [("user", 3)]
    assert {h.field for h in search(store, "営業本部")} == {"divisions"}


def test_a_renamed_or_moved_division_is_searched_by_its_new_place(store):
    store.put_divisions([{"divisionId": 10, "parentDivisionId": 9, "divisionName": "第一販売部", "childDivisionIds": [12]}])
    assert sorted(ids(search(store, "第一販売部"))) == [("user", 1), ("user", 3)]
    assert search(store, "第一営業部") == []
    store.put_divisions([{"divisionId": 12, "parentDivisionId": 11, "divisionName": "1課"}])  # 1課 moves under 第二営業部
    assert sorted(ids(search(store, "第二営業部"))) == [("user", 2), ("user", 3)]
    assert ids(search(store, "第一販売部")) == [("user", 1)]
