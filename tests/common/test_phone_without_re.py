"""`corpdir lookup`'s number reading without `re` answers exactly as the regexes did.

phone_pattern matches phonenumbers' own patterns (every region's); the str-method
readings in phone.py (digits, the plain-number test, SIP/tel URIs) and identify.py (the
dialable form) are held to the regexes they replace, over generated text.
"""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phonenumbers import PhoneMetadata
from phonenumbers.data import _AVAILABLE_REGION_CODES

from corpdir import phone, phone_pattern, phone_rules
from corpdir.phone import _plain, _uri_number, digits, number_forms
from corpdir.service.identify import dialable


def _region_patterns() -> list[str]:
    found = set()
    for region in _AVAILABLE_REGION_CODES:
        meta = PhoneMetadata.metadata_for_region(region)
        found.update(p for p in (meta.general_desc.national_number_pattern, meta.national_prefix_for_parsing) if p)
    return sorted(found)


PATTERNS = _region_patterns()


def test_every_region_s_patterns_are_matched_without_re():
    refused = [p for p in PATTERNS if phone_pattern.compile(p) is None]
    assert len(PATTERNS) > 200 and refused == []


def _same(source: str, text: str) -> None:
    ours, theirs = phone_pattern.compile(source), re.compile(source)
    assert bool(ours.fullmatch(text)) == bool(theirs.fullmatch(text)), (source, text)
    got, want = ours.match(text), theirs.match(text)
    assert (got is None) == (want is None), (source, text)
    if want is not None:
        assert (got.end(), got.group(0), got.groups()) == (want.end(), want.group(0), want.groups()), (source, text)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_patterns_match_as_re_does_on_numbers_they_accept_and_near_misses(data):
    source = data.draw(st.sampled_from(PATTERNS))
    text = data.draw(st.from_regex(re.compile(source), fullmatch=True).filter(lambda t: t.isascii()))
    _same(source, text)
    cut = data.draw(st.integers(0, len(text)))
    _same(source, text[:cut] + data.draw(st.text("0123456789", max_size=3)) + text[cut + 1:])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATTERNS), st.text("0123456789٣", max_size=18))
def test_patterns_match_as_re_does_on_any_digits(source, text):
    _same(source, text)


@pytest.mark.parametrize(("source", "text"), [
    ("(000[2569]\\d{4,6})$|(?:(?:003768)0?)|0", "0002123456"), ("(000[2569]\\d{4,6})$|(?:(?:003768)0?)|0", "00376803"),
    ("(?:(1)|2)+3", "1213"), ("a{2,}b", "aaab"), ("[1-3]?\\d$", "7\n"),
])
def test_captures_repeats_and_the_end_anchor_as_re(source, text):
    _same(source, text)


@pytest.mark.parametrize("source", ["a.b", "^1", "(?i)1", "1*?", "[^1]", "\\w", "1{2", "(1", "1)", "(?:)*", "1{3,2}"])
def test_syntax_outside_the_patterns_is_left_to_re(source):
    assert phone_pattern.compile(source) is None


_NUMBERISH = st.text(st.sampled_from(list("0123456789０１２３+＋-－ー()（）. \u3000\t*#,;:@><%sipSIPtelTELſİ٣abc")), max_size=30)


@settings(max_examples=500, deadline=None)
@given(_NUMBERISH)
def test_str_readings_agree_with_the_regexes_they_replace(text):
    assert digits(text) == re.sub(r"[^0-9]+", "", phone.fold_number(text))
    assert _plain(text) == bool(re.fullmatch(r"\s*\+?[0-9\s\-().]+", text))
    uri = re.match(r"^(?:sips?|tel):([^@;>]*)", text, re.IGNORECASE)
    assert _uri_number(text) == (uri.group(1) if uri else text)
    assert dialable(text) == re.sub(r"[^0-9*#,;+\-]", "", phone.fold_number(text))


@settings(max_examples=300, deadline=None)
@given(st.one_of(_NUMBERISH, st.builds(lambda p, n: p + n, st.sampled_from(["", "0", "00", "0081", "+81", "sip:", "tel:+", "81"]),
                                       st.text("0123456789", min_size=1, max_size=13))))
def test_number_forms_by_the_fast_path_are_those_re_gives(text):
    """The whole reading (forms and their keys) with the region's rules matched by
    phone_pattern (as a lookup process does, `re` not imported) against the same rules
    compiled by `re` (as every other process does): every form gets the same key."""
    rules = phone.cached_region_rules("JP")
    saved = dict(phone_rules._REGIONS)
    readings = []
    try:
        for compile_ in (phone_pattern.compile, re.compile):
            region = phone_rules.CompiledRegion(rules)
            region._regexes.update({name: compile_(getattr(rules, name)) for name in ("national_prefix", "pattern")})
            phone_rules._REGIONS["JP"] = region
            phone.e164.cache_clear()
            readings.append([(f, phone.match_key(f)) for f in number_forms(text)])
    finally:
        phone_rules._REGIONS.clear()
        phone_rules._REGIONS.update(saved)
        phone.e164.cache_clear()
    assert isinstance(region._regexes["pattern"], re.Pattern) and readings[0] == readings[1]
