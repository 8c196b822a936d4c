"""The one neutralising function: what every surface shows of hostile directory text."""

from __future__ import annotations

import json

import pytest

from corpdir.text import json_text, printable
from hostile_text import EVERY, NAMES, assert_inert, unsafe_characters


@pytest.mark.parametrize("name", list(EVERY))
def test_every_hostile_value_comes_out_inert(name):
    assert_inert(printable(EVERY[name]))
    assert_inert(printable(EVERY[name], keep_newlines=True))


def test_the_corpus_check_finds_what_it_must():
    """The check itself: each hostile value except pure markup and length is unsafe raw."""
    for name, value in EVERY.items():
        assert bool(unsafe_characters(value)) == (name not in ("markup", "link", "long")), name


def test_bidi_override_is_shown_not_obeyed():
    assert printable("abc\u202edcba.exe") == "abc<U+202E>dcba.exe"
    assert printable("Ta\u200bnaka\ufeff") == "Ta<U+200B>naka<U+FEFF>"
    assert printable("a\u2066b\u2069\u061c") == "a<U+2066>b<U+2069><U+061C>"


def test_controls_become_the_replacement_mark():
    assert printable("a\x1b]52;c;AAAA\x07b") == "a\ufffd]52;c;AAAA\ufffdb"
    assert printable("c1\x9b2J\x85") == "c1\ufffd2J\ufffd"
    assert printable("x\ud800y") == "x\ufffdy"  # a lone surrogate cannot even be written as UTF-8
    assert printable("one\ntwo\r") == "one\ufffdtwo\ufffd"
    assert printable("one\ntwo\r", keep_newlines=True) == "one\ntwo\ufffd"


def test_noncharacters_and_undecodable_bytes_become_the_replacement_mark():
    """A U+FFFE in one name made every phone's XML directory unparseable (XML 1.0 forbids
    it); an argv byte that is not UTF-8 arrives as a lone surrogate and cannot be written."""
    assert printable("a\ufffe\uffffb\ufdd0\ufdef\U0001fffe\U0010ffff") == "a\ufffd\ufffdb\ufffd\ufffd\ufffd\ufffd"
    assert printable(b"Yam\xffada".decode("utf-8", "surrogateescape")) == "Yam\ufffdada"
    assert printable("\ufdcf\ufdf0\ufffd\U0001fffd") == "\ufdcf\ufdf0\ufffd\U0001fffd"  # their neighbours are text


@pytest.mark.parametrize("name", list(EVERY))
def test_every_hostile_value_is_writable_as_utf8_and_xml(name):
    from xml.etree import ElementTree

    shown = printable(EVERY[name])
    element = ElementTree.fromstring(f"<n>{shown.replace('&', '&amp;').replace('<', '&lt;')}</n>".encode())
    assert element.text == shown


def test_japanese_names_pass_unchanged():
    """Kanji with an ideographic variation selector, full-width digits and spaces, emoji
    presentation: nothing here is hidden or reordering, so nothing changes."""
    for name in ("葛\U000e0100城 太郎", "ヤマダ\u3000タロウ", "内線　１２３", "☎\ufe0f 受付", "Ünïcödé"):
        assert printable(name) == name


def test_printing_twice_changes_nothing_more():
    for value in NAMES:
        once = printable(value)
        assert printable(once) == once


def test_json_keeps_the_exact_data_in_inert_bytes():
    record = {"name": EVERY["c1"] + EVERY["bidi"] + EVERY["zero_width"] + "\U000e0041", "kana": "ヤマダ"}
    line = json_text(record)
    assert_inert(line)
    assert "\\u009b" in line and "\\u202e" in line and "\\udb40\\udc41" in line and "ヤマダ" in line
    assert json.loads(line) == record


def test_text_taken_as_is_without_the_pattern_is_text_the_pattern_leaves_alone():
    """printable() returns printable text without running its pattern: every character the
    pattern replaces must be one ``str.isprintable`` refuses or one of the listed few."""
    from corpdir import text

    pattern = text._unsafe()
    caught = [chr(c) for c in range(0x110000) if pattern.match(chr(c))]
    assert [c for c in caught if text._inert(c)] == []
    assert set(text._PRINTABLE_BUT_UNSAFE) <= set(caught)  # none listed that the pattern would keep
    assert text.printable("山田 太郎\u3164") == "山田 太郎<U+3164>" and text.printable("\u3000") == "\u3000"
