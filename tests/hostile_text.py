"""A corpus of hostile directory text, and the check that output written from it is inert.

Every output surface (screens, lookup lines and JSON, CSV and vCard exports, the bulk
preview, the gateway's replies, the call pop-up and every field of a call event) is fed these values the way a careless or
malicious admin would put them into the directory, and the raw bytes or characters it
writes are checked with :func:`assert_inert`. Import it from any test::

    from hostile_text import HOSTILE, NAMES, assert_inert

``HOSTILE`` is what a directory can hold; ``EVERY`` adds what only bytes can bring.
"""

from __future__ import annotations

import unicodedata

HOSTILE: dict[str, str] = {
    "csi": "wipe\x1b[2J\x1b[31mname",  # clears the screen, turns text red
    "osc52": "evil\x1b]52;c;SGVsbG8=\x07name",  # sets the terminal's clipboard
    "osc0": "title\x1b]0;pwned\x07name",  # retitles the window
    "osc8": "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\me",  # a hidden hyperlink
    "c1": "c1\x9b2J\x9d0;t\x9c\x85name",  # CSI, OSC, ST and NEL as 8-bit C1 controls
    "bidi": "abc\u202edcba.exe",  # shown as "abcexe.abcd"
    "isolates": "\u2066ltr\u2069\u2067rtl\u2069\u2068fs\u2069\u200e\u200f\u061cname",
    "zero_width": "Ta\u200bna\u200cka\u200d\u2060\ufeff",  # looks like "Tanaka"
    "markup": "[red]x[/red][reverse]rev[/reverse]",
    "link": "[link=file:///etc/passwd]x[/link]",
    "cr": "good name\rEVIL",  # \r returns to the line's start and overwrites it
    "bel_nul": "ding\x07\x00name",
    "long": "長" * 5000 + "A" * 5000,  # 10,000 characters
    "huge": "巨" * 20000 + "\x1b]52;c;" + "B" * 20000,  # 60 KB of UTF-8, an OSC 52 in its middle
    "noncharacters": "xml\ufffe\uffff\ufdd0\U0001fffe\U0010ffffname",  # XML 1.0 forbids U+FFFE/U+FFFF
}
# Text no directory can hold (neither JSON to the service nor its SQLite stores a lone
# surrogate) but a call feed, an argument or a file can bring: bytes that are not UTF-8,
# decoded with surrogateescape, and lone surrogates as such (JSON's "\ud800" escape).
UNDECODABLE: dict[str, str] = {
    "surrogates": "half\ud800\udfffpair\udbffname",
    "invalid_utf8": b"bad\xff\xfe\xc3(\xed\xa0\x80name".decode("utf-8", errors="surrogateescape"),
}
EVERY = {**HOSTILE, **UNDECODABLE}  # for surfaces fed from bytes: call events, argv, files
NAMES = list(EVERY.values())

_ALLOWED_CONTROLS = {"\n", "\t"}


def _bad(char: str) -> bool:
    code = ord(char)
    if char in _ALLOWED_CONTROLS:
        return False
    noncharacter = 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE
    return code < 0x20 or 0x7F <= code <= 0x9F or noncharacter or unicodedata.category(char) in ("Cf", "Zl", "Zp", "Cs")


def unsafe_characters(output: str | bytes) -> list[str]:
    """The control, C1, bidi and invisible characters, noncharacters and lone surrogates in
    ``output`` (bytes are decoded as UTF-8, a byte that is not UTF-8 becomes a lone
    surrogate; a CR is allowed only as part of a CRLF line end), as ``U+XXXX`` names."""
    text = output.decode("utf-8", errors="surrogateescape") if isinstance(output, bytes) else output
    text = text.replace("\r\n", "\n")
    return sorted({f"U+{ord(c):04X}" for c in text if _bad(c)})


def assert_inert(output: str | bytes) -> None:
    """No ESC, BEL, CR, other C0, DEL, C1, bidi control, invisible character, noncharacter
    or undecodable byte in what was written (newline and tab are allowed)."""
    found = unsafe_characters(output)
    assert not found, f"unsafe characters written: {', '.join(found)}"
