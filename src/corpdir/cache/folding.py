"""Text folding for search: a receptionist finds a person however the name is typed.

Both the indexed terms and the typed query go through :func:`fold`, so these all meet:
full-width and half-width forms ('ＹＡＭＡＤＡ', 'ﾔﾏﾀﾞ'), hiragana and katakana ('やまだ',
'ヤマダ'), upper and lower case, and spacing ('山田 太郎', '山田太郎'). A romaji query
('yamada') is also tried as kana (:func:`query_variants`), via jaconv.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import jaconv

_SPACE = re.compile(r"\s+")
_ROMAJI = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiou]")
_LATIN = re.compile(r"[a-z]")


def fold(text: str) -> str:
    """No whitespace, NFKC (width; a separated half-width dakuten composes), hiragana ->
    katakana, casefold."""
    text = unicodedata.normalize("NFKC", _SPACE.sub("", text))
    return jaconv.hira2kata(text).casefold()


def parts(text: str) -> list[str]:
    """The whitespace-separated parts of a name, folded ('山田 太郎' -> ['山田', '太郎'])."""
    words = _SPACE.split(unicodedata.normalize("NFKC", text).strip())
    return [fold_common(w) for w in words if w] if len(words) > 1 else []


# Surnames, given names, division names, positions and company names repeat across a
# directory: writing a cache folds each of the common ones once. A bounded cache (~2 MB):
# values seen once (mails, whole names) pass through it while the common ones stay.
fold_common = lru_cache(maxsize=8192)(fold)


def query_variants(query: str) -> list[str]:
    """The folded query, plus its kana reading when it is romaji ('yamada' -> 'ヤマダ')."""
    folded = fold(query)
    variants = [folded] if folded else []
    if _ROMAJI.fullmatch(folded) and len(folded) >= 2 and _VOWEL.search(folded):
        kana = jaconv.hira2kata(jaconv.alphabet2kana(folded))
        if kana != folded and not _LATIN.search(kana):
            variants.append(kana)
    return variants
