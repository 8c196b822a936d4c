"""Text folding for search: a receptionist finds a person however the name is typed.

Both the indexed terms and the typed query go through :func:`fold`, so these all meet:
full-width and half-width forms ('ＹＡＭＡＤＡ', 'ﾔﾏﾀﾞ'), hiragana and katakana ('やまだ',
'ヤマダ'), upper and lower case, and spacing ('山田 太郎', '山田太郎'). A romaji query
('yamada') is also tried as kana (:func:`query_variants`), via jaconv, and with the long
vowels romaji leaves out put back (:func:`long_vowel_spellings`: 'otsuka' meets オオツカ).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import product

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
    if (kana := _romaji_kana(folded)) is not None:
        variants.append(kana)
    return variants


def long_vowel_variants(query: str) -> list[str]:
    """A romaji query's kana reading with the long vowels romaji drops put back
    ('otsuka' -> オオツカ among others); none for a query that is not romaji."""
    kana = _romaji_kana(fold(query))
    return long_vowel_spellings(kana) if kana is not None else []


def _romaji_kana(folded: str) -> str | None:
    if _ROMAJI.fullmatch(folded) and len(folded) >= 2 and _VOWEL.search(folded):
        kana = jaconv.hira2kata(jaconv.alphabet2kana(folded))
        if kana != folded and not _LATIN.search(kana):
            return kana
    return None


# Kana whose vowel is o or u: the passport (Hepburn) romaji of a name drops the long vowel
# after them, so 大塚 オオツカ is 'Otsuka', 修平 シュウヘイ 'Shuhei', 佐藤 サトウ 'Sato'.
_O_KANA = frozenset("オコソトノホモヨロヲゴゾドボポォョ")
_U_KANA = frozenset("ウクスツヌフムユルグズヅブプヴゥュ")
_LONG = {**dict.fromkeys(_O_KANA, ("ウ", "オ")), **dict.fromkeys(_U_KANA, ("ウ",))}
LONG_VOWEL_SPELLINGS = 16  # each is two B-tree probes a kind; a long romaji name is cut here


def long_vowel_spellings(kana: str) -> list[str]:
    """The spellings of a kana reading read from romaji with the long vowels romaji drops
    put back (オツカ -> オウツカ, オオツカ, オツウカ, ...), fewest additions first, at most
    LONG_VOWEL_SPELLINGS. A vowel already written ('satou') is not doubled, nothing is
    added after a bare ウ or オ but the first kana (コウ is long already), and only the
    first six places are tried (3**6 combinations at most)."""
    slots = [i for i, k in enumerate(kana)
             if k in _LONG and kana[i + 1:i + 2] not in ("ウ", "オ", "ー") and (i == 0 or k not in "ウオ")][:6]
    choices = product(*[("", *_LONG[kana[i]]) for i in slots])
    added = sorted((c for c in choices if any(c)), key=lambda c: sum(map(bool, c)))
    spellings = []
    for chosen in added[:LONG_VOWEL_SPELLINGS]:
        pieces, last = [], 0
        for i, vowel in zip(slots, chosen):
            pieces += [kana[last:i + 1], vowel]
            last = i + 1
        spellings.append("".join(pieces) + kana[last:])
    return spellings
