"""Phone numbers compared the way people write them.

'+81 3-1234-5678', '03(1234)5678' and '0312345678' are one number: both the reference
server (N1) and the local cache (caller-ID lookup) compare numbers by the keys made here,
so they agree. Parsing is done by the phonenumbers library; short internal numbers
(extensions) are kept as their digits.
"""

from __future__ import annotations

import re
from functools import lru_cache

import phonenumbers

DEFAULT_REGION = "JP"
_NON_DIGITS = re.compile(r"\D+")


def digits(number: str) -> str:
    """Only the digits of ``number`` ('+81 3-1234' -> '8131234')."""
    return _NON_DIGITS.sub("", number)


@lru_cache(maxsize=65536)
def e164(number: str, region: str = DEFAULT_REGION) -> str | None:
    """The E.164 form ('+81312345678'), or None when the text is not a plausible phone number."""
    text = number.strip()
    if len(digits(text)) < 5:  # extensions and short codes are not E.164 numbers
        return None
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
