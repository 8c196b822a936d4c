"""ASCII text for PBXs and phones that cannot show kanji (Superfecta defaults to IA5).

The directory's own alphabet name ('Kenichi Sato') is used where it has one; otherwise
the kana reading, else the text itself, is romanised by pykakasi (Hepburn). Whatever is
still not ASCII after that (a symbol, an accented letter) is folded or dropped.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _kakasi() -> Any:
    import pykakasi

    return pykakasi.kakasi()


@lru_cache(maxsize=65536)
def romanise(text: str) -> str:
    """'サトウ ケンイチ' -> 'Satou Kenichi'; ASCII text is returned as it is."""
    if text.isascii():
        return text
    words = []
    for part in _kakasi().convert(text):
        roman = part["hepburn"] or part["orig"]
        words.extend(w.capitalize() if w.islower() else w for w in roman.split())
    return fold(" ".join(words))


def fold(text: str) -> str:
    """Only ASCII: accents and full-width forms folded ('Ｓａｔｏ' -> 'Sato'), the rest dropped."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text)).encode("ascii", "ignore").decode()
    return " ".join(folded.split())


def ascii_name(alphabet: str, reading: str, text: str) -> str:
    """The alphabet form when the directory has one, else the reading (or text) romanised."""
    if alphabet and alphabet.isascii():
        return " ".join(alphabet.split())
    return romanise(reading or text or alphabet)
