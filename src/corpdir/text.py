"""Data from the service is text: it is shown, never interpreted.

A name may hold ESC or OSC sequences, a newline, a BEL, a bidi override that shows
``abc\\u202edcba.exe`` as ``abcexe.abcd``, or a zero-width character that makes two names
look the same. On a terminal those would move the cursor, retitle the window, set the
clipboard, or mislead the reader; in a file they reach whatever opens it next.

:func:`printable` is the one function that makes such text inert, and every surface
(screens, CLI lines, exports, XML, pop-ups) calls it on text from the service:

- C0 controls, DEL and C1 controls (U+0000-U+001F, U+007F-U+009F), lone surrogates (what
  an undecodable byte becomes under ``surrogateescape``) and noncharacters (U+FDD0-U+FDEF
  and the last two code points of every plane, U+FFFE/U+FFFF ... U+10FFFF) become U+FFFD
  (one cell, like the character it replaces was meant to be). Noncharacters are not text:
  XML 1.0 forbids U+FFFE/U+FFFF, so one of them breaks a phone's whole directory, and
  terminals give them no agreed width, so a row holding one is misaligned;
- bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C) and invisible format
  characters (U+200B-U+200D, U+2060-U+2064, U+FEFF, U+00AD, U+180E, U+2028/9, tag
  characters, Hangul fillers, ...) become a visible ``<U+202E>``: the reader sees that
  something is there, and what, instead of being misled by it.

Rich markup is not a character problem: screens build ``rich.text.Text`` from the
printable string (:mod:`corpdir.tui.text`), never a markup string. :func:`json_text` is
the same rule for JSON output: the characters are escaped (``\\u202e``) rather than
replaced, so the data stays exact while the bytes written stay inert.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import re
    from typing import Any

REPLACEMENT = "\ufffd"

# Invisible or direction-changing characters (Unicode Cf, Zl, Zp and the fillers that
# render as nothing). Variation selectors (U+FE00-FE0F, U+E0100-E01EF) are not here: they
# pick a kanji's glyph in Japanese names and an emoji's presentation, and are harmless.
_FORMAT = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f"
)
_CONTROL = "\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff"
_NONCHARACTER = "\ufdd0-\ufdef" + "".join(f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000))
# One pattern, compiled once (a pattern given as text costs a lookup in `re`'s cache on
# each call, ~0.7 us), on first need: most text is printable by Python's own rule and,
# outside the few characters below, holds nothing the pattern finds, so it is returned
# as it is without the pattern (the compile is ~7 M instructions of `corpdir lookup`).
_UNSAFE_CLASS = f"[\n{_CONTROL}{_NONCHARACTER}{_FORMAT}]"
_PRINTABLE_BUT_UNSAFE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")
"""What the pattern replaces although ``str.isprintable`` accepts it (fillers, a grapheme
joiner, Mongolian selectors): a test holds this to the pattern, code point by code point."""
_UNSAFE: re.Pattern[str] | None = None


def _unsafe() -> re.Pattern[str]:
    global _UNSAFE
    if _UNSAFE is None:
        import re  # here: text that needs no replacing (nearly all) is answered without `re`

        _UNSAFE = re.compile(_UNSAFE_CLASS)
    return _UNSAFE


def _inert(text: str) -> bool:
    """True when :func:`printable` would return ``text`` unchanged, told without the pattern."""
    return text.isprintable() and _PRINTABLE_BUT_UNSAFE.isdisjoint(text)


def _noncharacter(code: int) -> bool:
    """One of the 66 code points Unicode reserves as never-text (U+FDD0-U+FDEF, U+nFFFE, U+nFFFF)."""
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0xA0 or 0xD800 <= code <= 0xDFFF or _noncharacter(code):
        return REPLACEMENT
    return f"<U+{code:04X}>"


def _visible_but_newline(match: re.Match[str]) -> str:
    return "\n" if match.group() == "\n" else _visible(match)


def printable(value: object, *, keep_newlines: bool = False) -> str:
    """``value`` (``None`` -> "") as inert text for a screen, a terminal or a file.

    Control characters (C0, DEL, C1), lone surrogates and noncharacters become U+FFFD; bidi controls and
    invisible characters become a visible ``<U+XXXX>``. Newlines are replaced too, so a
    name stays one line, unless ``keep_newlines`` (a multi-line message, a quoted CSV
    field). Safe to call twice: the output holds nothing it would change.
    """
    text = "" if value is None else str(value)
    if _inert(text):
        return text
    return _unsafe().sub(_visible_but_newline if keep_newlines else _visible, text)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # JSON escapes astral characters as a UTF-16 surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value: Any) -> str:
    """``value`` as one line of JSON whose bytes hold no control, C1, bidi or invisible
    character: those are written as ``\\uXXXX`` escapes, so a JSON reader gets the exact
    data back and a terminal showing the line interprets nothing. Other non-ASCII text
    (kanji, kana) stays as it is."""
    import json

    # json.dumps has already escaped every C0 control (newline included), so what the
    # shared pattern finds in its output is exactly what JSON leaves raw: DEL, C1, bidi, invisible
    line = json.dumps(value, ensure_ascii=False)
    return line if _inert(line) else _unsafe().sub(_json_escape, line)
