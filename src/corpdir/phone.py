"""Phone numbers compared the way people write them.

'+81 3-1234-5678', '03(1234)5678' and '0312345678' are one number: both the reference
server (N1) and the local cache (caller-ID lookup) compare numbers by the keys made here,
so they agree. Parsing is done by the phonenumbers library; short internal numbers
(extensions) are kept as their digits.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

DEFAULT_REGION = "JP"
_NON_DIGITS = re.compile(r"\D+")
_PLAIN = re.compile(r"\s*\+?[\d\s\-().]+")  # digits with the usual separators, nothing else


def digits(number: str) -> str:
    """Only the digits of ``number`` ('+81 3-1234' -> '8131234')."""
    return _NON_DIGITS.sub("", number)


class RegionRules(NamedTuple):
    """What phonenumbers' metadata says about writing numbers in one region: plain data,
    so a cache can keep it and `corpdir lookup` need not import phonenumbers at all."""

    country_code: str
    international_prefix: str | None  # plain digits ('010' in JP), else None
    national_prefix: str | None  # phonenumbers' national_prefix_for_parsing (a regex)
    trunk: str | None  # the plain national prefix ('0' in JP)
    lengths: tuple[int, ...]  # possible national-number lengths
    pattern: str | None  # the general national-number pattern (a regex)
    shortest: int = 0  # plain digits shorter than this cannot be a number here (0: no such rule)

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


class _Region:
    """A region's rules and their regexes, each compiled on first use: an extension needs
    neither and '+81 ...' no national prefix (a compile costs `corpdir lookup` ~0.2 ms)."""

    __slots__ = ("_regexes", "rules")

    def __init__(self, rules: RegionRules) -> None:
        self.rules = rules
        self._regexes: dict[str, re.Pattern[str] | None] = {}

    def regex(self, name: str) -> re.Pattern[str] | None:
        """The compiled ``national_prefix`` or ``pattern`` of the rules (None: the region has none)."""
        if name not in self._regexes:
            source = getattr(self.rules, name)
            self._regexes[name] = re.compile(source) if source else None
        return self._regexes[name]


_REGIONS: dict[str, _Region | None] = {}


def region_rules(region: str) -> RegionRules | None:
    """The rules of ``region`` from phonenumbers' metadata (imports phonenumbers)."""
    from phonenumbers import PhoneMetadata

    meta = PhoneMetadata.metadata_for_region(region)
    if meta is None:
        return None
    intl = meta.international_prefix if meta.international_prefix and meta.international_prefix.isdigit() else None
    lengths = tuple(meta.general_desc.possible_length or ())
    # A digit string shorter than every possible number of the region (an extension such as
    # '605701') fails phonenumbers' possibility check, so its key is its digits. Only where
    # that reasoning holds: plain international prefix, no local-only lengths, and the
    # region is its country code's main region.
    from phonenumbers import region_code_for_country_code

    plain = (intl is not None and lengths and not meta.general_desc.possible_length_local_only
             and region_code_for_country_code(meta.country_code) == region)
    return RegionRules(str(meta.country_code), intl, meta.national_prefix_for_parsing or meta.national_prefix,
                       meta.national_prefix, lengths, meta.general_desc.national_number_pattern,
                       min(lengths) if plain else 0)


def use_region_rules(region: str, rules: dict[str, Any]) -> None:
    """Prime the fast path with rules kept elsewhere (the cache), without phonenumbers."""
    data = dict(rules)
    data["lengths"] = tuple(data.get("lengths") or ())
    _REGIONS[region] = _Region(RegionRules(**data))


def _region(region: str) -> _Region | None:
    if region not in _REGIONS:
        rules = region_rules(region)
        _REGIONS[region] = _Region(rules) if rules else None
    return _REGIONS[region]


def _too_short(text: str, rules: RegionRules) -> bool:
    return (rules.shortest > 0 and text.isascii() and text.isdigit() and len(text) < rules.shortest
            and not (rules.international_prefix and text.startswith(rules.international_prefix)))


def _fast_e164(text: str, region: str) -> str | None:
    """E.164 for the everyday cases, from the region's metadata, without a full parse:
    '+81 3-...' / '010 81 3-...' (this region's country code) and '03-...' (trunk prefix).
    None means "not an everyday case": the caller then asks phonenumbers.parse."""
    if not _PLAIN.fullmatch(text):
        return None
    compiled = _region(region)
    if compiled is None:
        return None
    rules = compiled.rules
    d = digits(text)
    if text.lstrip().startswith("+") or (rules.international_prefix and d.startswith(rules.international_prefix)):
        rest = d if text.lstrip().startswith("+") else d[len(rules.international_prefix):]
        if not rest.startswith(rules.country_code):
            return None
        national = rest[len(rules.country_code):]
        if rules.trunk and national.startswith(rules.trunk):
            return None  # '+81 (0)3 ...': leave the oddity to the full parser
    elif rules.trunk and (national_prefix := compiled.regex("national_prefix")) is not None:
        match = national_prefix.match(d)
        if match is None or match.group(0) != rules.trunk or any(match.groups()):
            return None
        national = d[match.end():]
    else:
        return None
    if len(national) not in rules.lengths:
        return None
    pattern = compiled.regex("pattern")
    if pattern is None or not pattern.fullmatch(national):
        return None  # phonenumbers strips a trunk prefix only when the rest is a plausible number
    return f"+{rules.country_code}{national}"


@lru_cache(maxsize=65536)
def e164(number: str, region: str = DEFAULT_REGION) -> str | None:
    """The E.164 form ('+81312345678'), or None when the text is not a plausible phone number."""
    text = number.strip()
    if len(digits(text)) < 5:  # extensions and short codes are not E.164 numbers
        return None
    compiled = _region(region)
    if compiled is not None and _too_short(text, compiled.rules):
        return None
    fast = _fast_e164(text, region)
    if fast is not None:
        return fast
    return _parsed_e164(text, region)


def _parsed_e164(text: str, region: str) -> str | None:
    """The full phonenumbers parse: the reference the fast path agrees with."""
    import phonenumbers

    try:
        parsed = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(parsed):
        return None
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def match_key(number: str, region: str = DEFAULT_REGION) -> str:
    """The key two numbers share when they are the same number: E.164 when the number
    parses, else its digits (extensions such as '1234' stay '1234')."""
    return e164(number, region) or digits(number)


def same_number(a: str, b: str, region: str = DEFAULT_REGION) -> bool:
    ka, kb = match_key(a, region), match_key(b, region)
    return bool(ka) and ka == kb


_LIST_SEPARATORS = re.compile(r"[\r\n,;、，；\t]+")
_EXTENSION = re.compile(r"\d{2,6}")


def split_numbers(text: str, region: str = DEFAULT_REGION) -> list[str]:
    """The numbers in what someone typed or pasted, in order, blanks and repeats dropped.

    Lines, commas, semicolons (also Japanese 、，；) and tabs separate numbers. Spaces do
    too, but only when they cannot be part of one number: '090 1111 2222' is one number,
    '03-7058-3199 2251 +81756782019' three, since together they are no number and each
    alone is a number or an extension."""
    out: list[str] = []
    for part in _LIST_SEPARATORS.split(text):
        part = part.strip()
        tokens = part.split()
        if len(tokens) > 1 and e164(part, region) is None and all(
                _EXTENSION.fullmatch(t) or e164(t, region) for t in tokens):
            out += tokens
        elif part:
            out.append(part)
    return list(dict.fromkeys(out))
