"""How alphabet names come to start with the family name in LDAP, however the directory
wrote them: a phone's prefix search for the family name must meet the start of a value,
and a given name must not (tests/gateway/test_ldap_phones.py searches the demo in slapd;
these are the spellings the demo does not have)."""

from __future__ import annotations

import pytest

from corpdir.gateway.ldap.names import searchable


@pytest.mark.parametrize(("alphabet", "kana", "cn_roman", "sn_roman"), [
    ("Satomi Aoki", "アオキ サトミ", "Aoki Satomi", "Aoki"),  # given name first, as the demo writes it
    ("AOKI Satomi", "", "AOKI Satomi", "AOKI"),  # no reading: the word in capitals is the family name
    ("Kenta Satoh", "さとう けんた", "Satoh Kenta", "Satoh"),  # Hepburn's variants of さとう: Satoh, Sato, Satou
    ("Sato Kenta", "サトウ ケンタ", "Sato Kenta", "Sato"),  # already family first: left so
    ("Yuki Ohno", "おおの ゆき", "Ohno Yuki", "Ohno"),
    ("", "ｱｵｷ ｻﾄﾐ", "Aoki Satomi", "Aoki"),  # no alphabet name: the half-width reading romanised
    ("Mary Ann Smith", "", "Smith Mary Ann", "Smith"),  # no reading, no capitals: the last word
])
def test_the_alphabet_name_starts_with_the_family_name(alphabet, kana, cn_roman, sn_roman):
    cn, sn = searchable("青木 里美", kana, alphabet)
    assert cn[0] == "青木 里美" and cn[-1] == cn_roman and sn[-1] == sn_roman
    given = cn_roman.split()[1]
    assert not any(v.lower().startswith(given.lower()) for v in cn + sn if v.isascii())  # 'Satomi*' meets nothing


def test_the_reading_is_there_in_both_scripts_for_the_family_name_and_the_whole_name():
    cn, sn = searchable("青木 里美", "ｱｵｷ　ｻﾄﾐ", "Satomi Aoki")
    assert cn[:3] == ["青木 里美", "アオキ サトミ", "あおき さとみ"]
    assert sn[:3] == ["青木", "アオキ", "あおき"]
