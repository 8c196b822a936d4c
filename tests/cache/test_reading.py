"""'By name' is phone-book order: by reading, in gojūon order, as a receptionist looks a name up."""

import pytest

from corpdir.cache.reading import KANA_ROWS, row_of, row_start, sort_key
from corpdir.cache.store import CacheStore


def key(**data):
    return sort_key(data)


def test_by_reading_not_by_code_point():
    # code-point order puts 三浦 (U+4E09) before 中島 (U+4E2D) before 阿部 (U+963F)
    names = [("三浦 翔", "ミウラ ショウ"), ("中島 翔太", "ナカジマ ショウタ"), ("阿部 舞", "アベ マイ"), ("加藤 恵", "カトウ メグミ")]
    ordered = sorted(names, key=lambda n: key(fullname=n[0], fullnameKana=n[1]))
    assert [n[0] for n in ordered] == ["阿部 舞", "加藤 恵", "中島 翔太", "三浦 翔"]


@pytest.mark.parametrize("first,second", [
    ("カトウ", "ガトウ"),      # plain before voiced when the rest is equal
    ("ガトウ", "カトウイ"),    # but a voiced mark does not outrank the letters after it
    ("ハル", "バル"), ("バル", "パル"),
    ("ツツミ", "ッツミ"),      # big before small
    ("ラアメン", "ラーメン"),  # the long mark reads as its vowel
    ("ラーメン", "ライス"),
])
def test_dictionary_rule(first, second):
    assert key(fullnameKana=first) < key(fullnameKana=second)


def test_a_kana_name_without_a_reading_is_its_own_reading_and_symbols_then_latin_come_before_kana():
    assert key(fullname="テレビ会議室") != key(fullname="テレビ会議室", fullnameAlphabet="TV room")
    kana_only = key(fullname="さとう はなこ")
    assert kana_only == key(fullname="佐藤 花子", fullnameKana="サトウ ハナコ")
    assert key(fullname="[x]") < key(fullname="Adams", fullnameAlphabet="Adams") < key(fullnameKana="アベ")


def test_kanji_without_a_reading_gets_one():
    assert row_of(key(fullname="会議室")) == "か"  # かいぎしつ, from pykakasi


def test_rows_for_a_jump_key():
    assert [row_of(key(fullnameKana=k)) for k in ("アベ", "ガトウ", "ショウ", "ヂ", "ポチ", "ユキ", "ヲ", "ン")] == \
        ["あ", "か", "さ", "た", "は", "や", "わ", "わ"]
    assert row_of(key(fullname="Smith", fullnameAlphabet="Smith")) == "S"
    assert row_start("か") <= key(fullnameKana="カ") < row_start("さ")
    with pytest.raises(ValueError, match="kana row"):
        row_start("が")


def test_first_rows_of_the_demo_tenant_by_name_are_in_gojuon_order():
    from service_fixtures import demo_tenant

    tenant = demo_tenant(400)
    store = CacheStore(":memory:")
    store.put_users(tenant.users)
    store.put_contacts([{k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in c.items()} for c in tenant.contacts])
    people = store.list_users(order_by="fullname", limit=60)
    contacts = store.list_contacts(limit=60)
    for rows in (people, contacts):
        keys = [sort_key(r.model_dump()) for r in rows]
        assert keys == sorted(keys)
        assert row_of(keys[0]) == "あ"
        readings = [r.fullnameKana.replace(" ", "") for r in rows]
        assert readings[0][0] in "アイウエオ" and readings == sorted(readings, key=lambda k: sort_key({"fullnameKana": k}))
    # every row of the list, in order, is a run of kana rows then letters: no row comes back
    rows = [row_of(sort_key(u.model_dump())) for u in store.list_users(order_by="fullname", limit=10_000)]
    seen = list(dict.fromkeys(rows))
    assert seen == sorted(seen, key=lambda r: (r in KANA_ROWS, KANA_ROWS.find(r), r))
    assert store.users_row_offset("か") == rows.index("か")
    assert store.users_row_offset("Z") == store.users_row_offset("あ") == 0  # no Latin names in the demo
    store.close()
