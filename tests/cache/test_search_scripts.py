"""The same person is found however their name is typed: hiragana, katakana, half-width
katakana or romaji, family and given name with or without the space, on the demo tenant
the embedded default serves."""

from __future__ import annotations

import jaconv
import pytest

from corpdir.cache.search import Searcher
from corpdir.cache.store import CacheStore


@pytest.fixture(scope="module")
def demo():
    from service_fixtures import demo_tenant

    tenant = demo_tenant(500)  # the embedded default's size
    store = CacheStore(":memory:")
    store.put_users(tenant.users)
    yield tenant.users, Searcher(store, kinds=("user",))
    store.close()


def typings(user: dict) -> list[str]:
    """The name as a desk would type it, in every script."""
    family, given = user["fullnameKana"].split()
    out = []
    for f, g in ((family, given), (jaconv.kata2hira(family), jaconv.kata2hira(given)),
                 (jaconv.z2h(family), jaconv.z2h(given))):
        out += [f"{f} {g}", f"{g} {f}", f + g]
    first, last = user["fullnameAlphabet"].lower().split()
    out += [f"{last} {first}", f"{first} {last}", first + last]
    return out


def test_every_person_is_found_by_their_reading_in_every_script(demo):
    users, searcher = demo
    people = [u for u in users if u["userType"] != "FACILITY"]  # rooms have one-word names
    assert len(people) > 400
    missed = [(u["fullname"], typed) for u in people for typed in typings(u)
              if u["userId"] not in [h.id for h in searcher.search(typed, limit=1000)]]
    assert missed == []


def test_a_family_name_and_part_of_the_given_name_find_the_same_people_in_every_script(demo):
    """'たなか たろう' finds 田中 聡太郎 as 'タナカ タロウ' and 'tanaka taro' do."""
    users, searcher = demo
    tanaka = next(u for u in users if u["fullnameKana"].startswith("タナカ ") and len(u["fullnameKana"]) >= 8)
    family, given = tanaka["fullnameKana"].split()
    part = given[-3:]  # inside the given name, not at its start
    romaji = jaconv.kata2alphabet(f"{family} {part}")
    answers = {typed: {h.id for h in searcher.search(typed, limit=1000)} for typed in (
        f"{jaconv.kata2hira(family)} {jaconv.kata2hira(part)}", f"{family} {part}", jaconv.z2h(f"{family} {part}"),
        romaji)}
    assert tanaka["userId"] in answers[f"{family} {part}"]
    assert all(found == answers[f"{family} {part}"] for found in answers.values()), answers


def passport_romaji(kana: str) -> str:
    """A reading as Japanese passports and most business cards write it (Hepburn without
    macrons: the long vowel dropped): オオツカ 'otsuka', シュウヘイ 'shuhei', サトウ 'sato'."""
    romaji = jaconv.kata2alphabet(kana).lower()
    for long, short in (("ou", "o"), ("oo", "o"), ("uu", "u")):
        romaji = romaji.replace(long, short)
    return romaji


def test_every_person_is_found_by_romaji_without_long_vowels_even_with_no_alphabet_name(demo):
    """'otsuka shuhei' finds 大塚 修平 (オオツカ シュウヘイ) from the reading alone: a directory
    without the alphabet name must still answer the romaji a desk types."""
    users, _ = demo
    people = [dict(u, fullnameAlphabet="") for u in users if u["userType"] != "FACILITY"]
    store = CacheStore(":memory:")
    store.put_users(people)
    searcher = Searcher(store, kinds=("user",))
    long_vowelled = [u for u in people if passport_romaji(u["fullnameKana"]) != jaconv.kata2alphabet(u["fullnameKana"]).lower()]
    assert len(long_vowelled) > 100  # the demo's readings have long vowels to drop
    missed = []
    for u in long_vowelled:
        family, given = (passport_romaji(part) for part in u["fullnameKana"].split())
        for typed in (f"{family} {given}", family):
            if u["userId"] not in [h.id for h in searcher.search(typed, limit=1000)]:
                missed.append((u["fullname"], typed))
    store.close()
    assert missed == []
