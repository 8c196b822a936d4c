"""The number a PBX sends, in the forms worth looking up.

PBXs send a caller's number as they received it or as they would dial it back:
'+81312345678', '81312345678' (E.164 without the plus; a '+' in a query string also
arrives as a space), '0312345678' (national), '00312345678' or '90312345678' (an
outside-line prefix before it), '7261' (an extension), 'sip:0312345678@pbx' or
'tel:+81-3-1234-5678'. The cache's phone index compares by :func:`corpdir.phone.match_key`;
this module only decides which spellings to try, most likely first.
"""

from __future__ import annotations

import re

from corpdir.phone import cached_region_rules, digits

_URI = re.compile(r"^(?:sips?|tel):([^@;]*)", re.IGNORECASE)
_MIN_NUMBER = 5  # shorter: an extension, never stripped of a prefix


def number_forms(raw: str, region: str, strip_prefixes: list[str] | tuple[str, ...] = ()) -> list[str]:
    text = raw.strip()
    if match := _URI.match(text):
        text = match.group(1)
    d = digits(text)
    if not d:
        return []
    forms = [text]
    rules = cached_region_rules(region)
    if rules is not None and not text.lstrip().startswith("+") and d.startswith(rules.country_code) \
            and len(d) - len(rules.country_code) in rules.lengths:
        # E.164 without its '+' (a national number here starts with the trunk prefix): try it as E.164 first
        forms.insert(0 if rules.trunk and not d.startswith(rules.trunk) else 1, "+" + d)
    for prefix in strip_prefixes:
        rest = d[len(prefix):]
        if d.startswith(prefix) and len(rest) >= _MIN_NUMBER:
            forms.append(rest)
    return list(dict.fromkeys(forms))
