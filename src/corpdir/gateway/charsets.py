"""Phones that cannot show Japanese in UTF-8: the charset a phone's ``Accept-Charset`` asks for.

A phone that does not send the header, or ranks UTF-8 at least as high as anything else,
gets UTF-8. One that prefers Shift_JIS (Japanese models of older firmware) gets the same
document in Shift_JIS, declared in the prolog and the Content-Type; a character Shift_JIS
lacks is written as an XML character reference, which any XML parser reads back. One that
prefers ISO-8859-1 or US-ASCII (older Cisco models rank UTF-8 below ISO-8859-1) gets the
ASCII romanisation (as with ``ascii=1``), which is the same bytes in either.
"""

from __future__ import annotations

UTF8, SHIFT_JIS, ASCII = "UTF-8", "Shift_JIS", "US-ASCII"
_NAMES = {"utf-8": UTF8, "utf8": UTF8, "shift_jis": SHIFT_JIS, "shift-jis": SHIFT_JIS, "sjis": SHIFT_JIS,
          "x-sjis": SHIFT_JIS, "windows-31j": SHIFT_JIS, "cp932": SHIFT_JIS, "iso-8859-1": ASCII, "latin1": ASCII,
          "iso_8859-1": ASCII, "us-ascii": ASCII, "ascii": ASCII}
_PROLOG = b'<?xml version="1.0" encoding="UTF-8"?>'


def negotiate(header: str) -> str:
    """The charset to answer in for an ``Accept-Charset`` header ('' or absent: UTF-8)."""
    ranked: dict[str, float] = {}
    wildcard = None
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        name = name.strip().lower()
        if name == "*":
            wildcard = q
        elif name in _NAMES:
            ranked[_NAMES[name]] = max(ranked.get(_NAMES[name], 0.0), q)
    if not header.strip() or (wildcard or 0) > 0 and UTF8 not in ranked:
        ranked.setdefault(UTF8, wildcard or 1.0)
    utf8 = ranked.get(UTF8, 0.0)
    best = max((c for c in (SHIFT_JIS, ASCII) if ranked.get(c, 0.0) > 0), key=lambda c: ranked[c], default=None)
    if best is None or utf8 >= ranked[best]:
        return UTF8
    return best


def media_type(charset: str) -> str:
    if charset == UTF8:
        return "text/xml; charset=utf-8"
    return f"text/xml; charset={'ISO-8859-1' if charset == ASCII else charset}"


def encode(chunk: bytes, charset: str) -> bytes:
    """A UTF-8 chunk of an XML document in ``charset`` (the prolog's declaration with it)."""
    if charset == UTF8:
        return chunk
    label = "ISO-8859-1" if charset == ASCII else charset
    if chunk.startswith(_PROLOG):
        chunk = b'<?xml version="1.0" encoding="%s"?>' % label.encode() + chunk[len(_PROLOG):]
    return chunk.decode("utf-8").encode("shift_jis" if charset == SHIFT_JIS else "latin-1", "xmlcharrefreplace")
