"""A region's rules for writing phone numbers, from phonenumbers' metadata as plain data.

The cache keeps them (:mod:`corpdir.cache.numbers`), so `corpdir lookup` reads a number
and the TUI writes its lists' numbers without importing phonenumbers (:mod:`corpdir.phone`
uses them; phonenumbers answers what they do not cover).
"""

from __future__ import annotations

import sys
from collections import namedtuple

from corpdir import phone_pattern

TYPE_CHECKING = False  # not typing's: docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    import re
    from typing import Any


class RegionRules(namedtuple("RegionRules", ("country_code", "international_prefix", "national_prefix", "trunk",
                                             "lengths", "pattern", "shortest", "formats"), defaults=(0, ()))):
    """What phonenumbers' metadata says about writing numbers in one region: plain data,
    so a cache can keep it and `corpdir lookup` need not import phonenumbers at all.

    country_code: str; international_prefix: plain digits ('010' in JP), else None;
    national_prefix: phonenumbers' national_prefix_for_parsing (a regex) or None; trunk:
    the plain national prefix ('0' in JP) or None; lengths: the possible national-number
    lengths; pattern: the general national-number pattern (a regex) or None; shortest:
    plain digits shorter than this cannot be a number here (0: no such rule); formats: how
    the region writes its own numbers (:func:`national_formats`), so the lists show them
    without phonenumbers. (A named tuple, not typing.NamedTuple: typing is not imported on
    the lookup path.)"""

    __slots__ = ()

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


class CompiledRegion:
    """A region's rules and their regexes, each compiled on first use: an extension needs
    neither and '+81 ...' no national prefix (a compile costs `corpdir lookup` ~0.2 ms)."""

    __slots__ = ("_regexes", "rules")

    def __init__(self, rules: RegionRules) -> None:
        self.rules = rules
        self._regexes: dict[str, re.Pattern[str] | phone_pattern.Pattern | None] = {}

    def regex(self, name: str) -> re.Pattern[str] | phone_pattern.Pattern | None:
        """The rules' ``national_prefix`` or ``pattern`` compiled (None: the region has none):
        by phone_pattern where `re` is not imported (a lookup), else by `re` (~30x faster)."""
        if name not in self._regexes:
            source = getattr(self.rules, name)
            compiled = phone_pattern.compile(source) if source and "re" not in sys.modules else None
            if source and compiled is None:
                import re

                compiled = re.compile(source)
            self._regexes[name] = compiled
        return self._regexes[name]

    def national(self, national_number: str) -> str | None:
        """The national significant number as the region writes it, by the first of its
        formats whose leading digits and pattern match (phonenumbers' choice and its
        substitution, with `re` as phonenumbers does); None: the rules have no formats."""
        if not self.rules.formats:
            return None
        import re

        for pattern, replacement, leading in self.rules.formats:
            if (leading is None or re.match(leading, national_number)) and re.fullmatch(pattern, national_number):
                return re.sub(pattern, replacement, national_number)
        return national_number


_REGIONS: dict[str, CompiledRegion | None] = {}

# The regions phonenumbers has a numbering plan for (its SUPPORTED_REGIONS), so that a
# configured region is checked without importing it; tests/common/test_config_values.py
# holds the two together.
REGIONS = frozenset((
    "AC AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS "
    "BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG "
    "EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT "
    "HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR "
    "LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF "
    "NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD "
    "SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TA TC TD TG TH TJ TK TL TM TN TO TR TT TV TW "
    "TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW"
).split())


def checked_region(value: object) -> str:
    """``value`` as a region with a numbering plan, in upper case (``jp`` is JP: phonenumbers
    knows only upper case, and a lower-case region made every number written without +81 "not
    found"); ValueError naming the rule otherwise. The one rule of ``[service] region``, its
    variable, `corpdir lookup`'s reader and an SSH key's profile."""
    if not (isinstance(value, str) and len(value) == 2 and value.isascii() and value.isalpha()):
        raise ValueError(f"{value!r} is not a two-letter country code (ISO 3166-1, e.g. JP or US)")
    if value.upper() not in REGIONS:
        raise ValueError(f"{value!r} is no country with a telephone numbering plan (ISO 3166-1, e.g. JP or US)")
    return value.upper()


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
    home = PhoneMetadata.metadata_for_region(region_code_for_country_code(meta.country_code))
    return RegionRules(str(meta.country_code), intl, meta.national_prefix_for_parsing or meta.national_prefix,
                       meta.national_prefix, lengths, meta.general_desc.national_number_pattern,
                       min(lengths) if plain else 0, national_formats(home) if home is not None else ())


def national_formats(meta: Any) -> tuple[tuple[str, str, str | None], ...]:
    """phonenumbers' NATIONAL formats of a country (its metadata's ``number_format``) as
    (pattern, replacement, leading digits pattern or None), in its order, the national
    prefix rule already put in the first group, as phonenumbers' ``_format_nsn_using_pattern``
    does for every number it formats (there is no carrier code on this path)."""
    import re

    formats = []
    for rule in meta.number_format:
        replacement = rule.format
        if rule.national_prefix_formatting_rule:
            replacement = re.sub(r"(\\\d)", rule.national_prefix_formatting_rule, replacement, count=1)
        formats.append((rule.pattern, replacement, rule.leading_digits_pattern[-1] if rule.leading_digits_pattern else None))
    return tuple(formats)


def use_region_rules(region: str, rules: dict[str, Any]) -> None:
    """Prime the fast path with rules kept elsewhere (the cache), without phonenumbers."""
    data = dict(rules)
    data["lengths"] = tuple(data.get("lengths") or ())
    data["formats"] = tuple(tuple(rule) for rule in data.get("formats") or ())
    _REGIONS[region] = CompiledRegion(RegionRules(**data))


def compiled_region(region: str) -> CompiledRegion | None:
    """The region's rules as the fast path uses them: primed, else from phonenumbers once."""
    if region not in _REGIONS:
        rules = region_rules(region)
        _REGIONS[region] = CompiledRegion(rules) if rules else None
    return _REGIONS[region]


def cached_region_rules(region: str) -> RegionRules | None:
    """The rules of ``region``, looked up once per process (or primed by :func:`use_region_rules`)."""
    found = compiled_region(region)
    return found.rules if found else None
