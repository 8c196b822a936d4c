"""A name as the phones' LDAP name search meets it.

Yealink and Grandstream search names with ``(|(cn=%)(sn=%))``, ``%`` being what the user
typed, matched as a prefix (Yealink's default "prefix matching"; Grandstream: "starting
with the entered prefix"). slapd's caseIgnore matching folds case and width but not
hiragana to katakana, and a prefix meets only the start of a value, so every way a user
may start typing a name must be the start of one value:

- the name as written (family name first: 青木 明美);
- the reading in katakana and in hiragana (アオキ アケミ, あおき あけみ): phones type either;
- the alphabet name family name first (Aoki Akemi): the directory writes it given name
  first (Akemi Aoki), where ``Sato*`` would find every Satomi and ``Aoki*`` nobody.

Which word of an alphabet name is the family name is read from the reading: the word
whose romanisation is the romanised family reading (Hepburn's variants made equal:
Satō, Satou, Satoh, Sato). Failing that, a word in capitals (AOKI Akemi) is the family
name; failing that, the last word (the given-name-first order the directory uses).
Without an alphabet name, the romanised reading stands in.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import jaconv

_NOT_LETTERS = re.compile(r"[^a-z]")
_LONG = (("ou", "o"), ("oo", "o"), ("uu", "u"), ("oh", "o"), ("mb", "nb"), ("mp", "np"), ("nn", "n"))


def _spaced(text: str) -> str:
    """NFKC (half-width kana, full-width letters), ideographic and repeated spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


@lru_cache(maxsize=16384)  # each word of an alphabet name is compared: given and family names repeat
def _loose(romaji: str) -> str:
    """A romanisation with Hepburn's spelling variants made equal ('Satou' = 'Satoh' = 'Sato')."""
    text = _NOT_LETTERS.sub("", unicodedata.normalize("NFKD", romaji).lower())
    for long, short in _LONG:
        text = text.replace(long, short)
    return text


@lru_cache(maxsize=8192)  # family names repeat: a 190k-entry export romanises a few thousand
def _family_key(family_kana: str) -> str:
    return _loose(romanised(family_kana)) if family_kana else ""


def romanised(kana: str) -> str:
    """'あおき あけみ' -> 'Aoki Akemi' ('' when the reading is not all kana)."""
    roman = jaconv.kana2alphabet(jaconv.kata2hira(kana)).replace("ー", "")
    return roman.title() if roman.replace(" ", "").isascii() and roman.replace(" ", "").isalpha() else ""


def family_first(alphabet: str, family_kana: str) -> tuple[str, str]:
    """(the alphabet name family name first, the family name), per the module docstring."""
    words = _spaced(alphabet).split()
    if len(words) < 2:
        return " ".join(words), " ".join(words)
    wanted = _family_key(family_kana)
    at = next((i for i, w in enumerate(words) if wanted and _loose(w) == wanted), None)
    if at is None:
        at = next((i for i, w in enumerate(words) if len(w) > 1 and w.isupper()), len(words) - 1)
    return " ".join([words[at], *words[:at], *words[at + 1:]]), words[at]


def searchable(name: str, kana: str, alphabet: str) -> tuple[list[str], list[str]]:
    """(cn values, sn values) of a person: the name, its reading in both scripts and its
    alphabet name family first; the family name in the same four forms. The name comes
    first: a phone showing ``cn`` shows the first value."""
    family = _spaced(name).partition(" ")[0]
    reading = jaconv.hira2kata(_spaced(kana))
    family_kana = reading.partition(" ")[0]
    if alphabet.strip():
        roman, roman_family = family_first(alphabet, family_kana)
    else:
        roman = romanised(reading)
        roman_family = roman.partition(" ")[0]
    cn = [name, reading, jaconv.kata2hira(reading), roman]
    sn = [family or name, family_kana, jaconv.kata2hira(family_kana), roman_family]
    return cn, sn


def readings(kana: str) -> list[str]:
    """A reading in katakana and in hiragana (a company's or division's, for its line)."""
    reading = jaconv.hira2kata(_spaced(kana))
    return [reading, jaconv.kata2hira(reading)]
