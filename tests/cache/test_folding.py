import pytest

from corpdir.cache.folding import fold, long_vowel_variants, parts, query_variants


@pytest.mark.parametrize("typed", ["やまだ", "ヤマダ", "ﾔﾏﾀﾞ", "ﾔ ﾏ ﾀ ﾞ"])
def test_kana_forms_fold_to_one_key(typed):
    assert fold(typed) == fold("ヤマダ")


@pytest.mark.parametrize("typed,expected", [("ＹＡＭＡＤＡ", "yamada"), ("Yamada", "yamada"), ("山田　太郎", "山田太郎"), ("ＡＢＣ１２３", "abc123")])
def test_width_case_and_spaces(typed, expected):
    assert fold(typed) == expected


def test_name_parts_are_indexed_separately():
    assert parts("山田 太郎") == ["山田", "太郎"]
    assert parts("山田") == []


def test_romaji_query_is_also_tried_as_kana():
    assert query_variants("yamada") == ["yamada", "ヤマダ"]
    assert query_variants("xq") == ["xq"]  # no kana reading: no variant


def test_romaji_long_vowels_are_put_back_without_doubling_a_written_one():
    assert "オオツカ" in long_vowel_variants("otsuka") and "オウツカ" in long_vowel_variants("otsuka")
    assert long_vowel_variants("shuhei") == ["シュウヘイ"]
    assert "サトウ" in long_vowel_variants("sato")
    assert long_vowel_variants("satou") == []  # written already
    assert long_vowel_variants("yamada") == []  # no o or u to lengthen
    assert long_vowel_variants("山田") == [] and long_vowel_variants("オツカ") == []  # only romaji is read so
