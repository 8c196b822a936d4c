"""Phone-book order: people and contacts "by name" in the order of their reading.

A Japanese phone book is ordered by how a name is read, in gojūon order (あいうえお
かきくけこ ...), not by the code points of its kanji (which put 三浦 before 中島 and
テレビ会議室 first). The reading is ``fullnameKana``, else the name itself when it is
written in kana, else a reading pykakasi gives for its kanji. As in JIS X 4061 (Japanese
string ordering), names that start with a symbol or digit come first, then names in
Latin letters (A to Z), then the kana readings.

The sort key follows the dictionary rule (JIS X 4061): first compare the kana with
voiced marks and small forms taken off (ガ as カ, ッ as ツ) and the long-vowel mark read
as its vowel (ラーメン as ラアメン), then, between names equal so far, plain before voiced
before semi-voiced, big before small. The key is a string, so SQLite orders and indexes
it by bytes: group digit, base kana, a separator, then one ASCII mark per character.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import jaconv

KANA_ROWS = "あかさたなはまやらわ"
_OTHER = 1  # group digits, in JIS X 4061's order: symbols and digits, Latin letters, kana
_LATIN = 2
_KANA = 3
_SEPARATOR = "\x01"

# small -> big, and the marks that tell them apart in the second comparison
_SMALL = str.maketrans("ァィゥェォッャュョヮヵヶ", "アイウエオツヤユヨワカケ")
_VOWELS = {  # the vowel a kana ends in, for the long-vowel mark after it
    **dict.fromkeys("アカサタナハマヤラワガザダバパャヮァヵ", "ア"), **dict.fromkeys("イキシチニヒミリギジヂビピィヰ", "イ"),
    **dict.fromkeys("ウクスツヌフムユルグズヅブプュゥッヴ", "ウ"), **dict.fromkeys("エケセテネヘメレゲゼデベペェヶヱ", "エ"),
    **dict.fromkeys("オコソトノホモヨロヲゴゾドボポョォ", "オ"),
}
_KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc]+")
_LATIN_TEXT = re.compile(r"[A-Za-z]")
_NOT_KANA = re.compile(r"[^\u30a1-\u30fa\u30fc]")
_kakasi: Any = None


def _base_and_marks(kana: str) -> tuple[str, str]:
    base, marks, previous = [], [], ""
    for ch in kana:
        if ch == "ー":
            ch_base, mark = _VOWELS.get(previous, "ー"), "4"
        else:
            plain = unicodedata.normalize("NFD", ch)
            mark = "1" if plain.endswith("\u3099") else "2" if plain.endswith("\u309a") else "0"
            ch_base = plain[0].translate(_SMALL)
            if ch_base != plain[0]:
                mark = "3"
        base.append(ch_base)
        marks.append(mark)
        previous = ch
    return "".join(base), "".join(marks)


def _katakana(text: str) -> str:
    folded = jaconv.hira2kata(unicodedata.normalize("NFKC", text))
    return _NOT_KANA.sub("", folded)


def _romanise_reading(text: str) -> str:
    """A kana reading for kanji (pykakasi: loaded only when a name comes without one)."""
    global _kakasi
    if _kakasi is None:
        import pykakasi

        _kakasi = pykakasi.kakasi()
    return "".join(item["kana"] for item in _kakasi.convert(text))


def reading(data: dict[str, Any]) -> str:
    """How a person's or contact's name is read: katakana, or Latin letters, or the name."""
    kana = data.get("fullnameKana")
    if kana and (k := _katakana(kana)):
        return k
    name = (data.get("fullname") or "").strip()
    if name and _KATAKANA.fullmatch(k := jaconv.hira2kata(unicodedata.normalize("NFKC", name)).replace(" ", "")):
        return k
    alphabet = data.get("fullnameAlphabet")
    if name and not _LATIN_TEXT.search(name) and not alphabet:
        if k := _katakana(_romanise_reading(name)):
            return k
    return alphabet or name


def sort_key(data: dict[str, Any]) -> str:
    """The key "by name" orders on (see the module's doc)."""
    text = reading(data)
    if text and _KATAKANA.fullmatch(text):
        base, marks = _base_and_marks(text)
        return f"{_KANA}{base}{_SEPARATOR}{marks}"
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    return f"{_LATIN if folded[:1].isascii() and folded[:1].isalpha() else _OTHER}{folded}"


def division_sort_key(data: dict[str, Any]) -> str:
    """The key a division's siblings are ordered on: its name's reading, as a person's."""
    return sort_key({"fullnameKana": data.get("divisionNameKana"), "fullname": data.get("divisionName"),
                     "fullnameAlphabet": data.get("divisionNameAlphabet")})


def row_of(key: str) -> str:
    """The index row a sort key belongs to: a kana row (あ, か, ... わ), a capital letter,
    or '#' for anything else; what a jump-to-row key lists."""
    if key.startswith(str(_KANA)) and len(key) > 1:
        hira = jaconv.kata2hira(key[1])
        for label, nxt in zip(KANA_ROWS, KANA_ROWS[1:] + "ゔ"):
            if label <= hira < nxt:
                return label
        return KANA_ROWS[-1]  # を, ん
    if key.startswith(str(_LATIN)) and len(key) > 1:
        return key[1].upper()
    return "#"


def row_start(label: str) -> str:
    """The smallest sort key of the row ``label`` ('か' or 'K'): rows before it sort below."""
    if label in KANA_ROWS:
        return f"{_KANA}{jaconv.hira2kata(label)}"
    if len(label) == 1 and label.isascii() and label.isalpha():
        return f"{_LATIN}{label.casefold()}"
    raise ValueError(f"row: {label!r} is not a kana row ({KANA_ROWS}) or a letter")
