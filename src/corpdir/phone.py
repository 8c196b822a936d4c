"""Phone numbers compared the way people write them.

'+81 3-1234-5678', '03(1234)5678' and '0312345678' are one number: both the reference
server (N1) and the local cache (caller-ID lookup) compare numbers by the keys made here,
so they agree. Parsing is done by the phonenumbers library; short internal numbers
(extensions) are kept as their digits.

A number typed on a Japanese keyboard often comes in full width ('０３−６４４０−２９７９',
'（０３）', a 'ー' for a hyphen): :func:`fold_number` is the one rule that turns such text
into the spec's characters, and every function here applies it first.
"""

from __future__ import annotations

from functools import lru_cache

from corpdir.phone_rules import cached_region_rules, compiled_region

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any

    from corpdir.phone_rules import RegionRules

DEFAULT_REGION = "JP"
# No `re` on the path every number takes (~26 M instructions of a `corpdir lookup` whose
# floor is ~37 M); a form field's and a paste's patterns below are compiled on first use.
_ASCII_DIGITS = frozenset("0123456789")
_ASCII_NON_DIGITS = str.maketrans(dict.fromkeys((c for c in range(128) if not 48 <= c <= 57), None))
_PLAIN_MARKS = str.maketrans("", "", "0123456789-().")  # with any blank: digits with the usual separators


def _plain(text: str) -> bool:
    r"""``re.fullmatch(r"\s*\+?[0-9\s\-().]+", text)`` told with str methods."""
    rest = text.lstrip()
    if not rest:
        return bool(text)
    if rest[0] == "+":
        rest = rest[1:]
    left = rest.translate(_PLAIN_MARKS)
    return bool(rest) and (not left or left.isspace())

# Full-width digits and signs, and every dash a Japanese IME offers for a hyphen: the
# katakana long-vowel mark 'ー' (and half-width 'ｰ'), hyphen '‐', non-breaking hyphen,
# figure dash, en and em dash, horizontal bar, minus '−', full-width '－', small '﹣'.
_HYPHENS = "ーｰ‐‑‒–—―−－﹣"
_FOLD = str.maketrans({
    **{chr(0xFF10 + i): str(i) for i in range(10)},
    **dict.fromkeys(_HYPHENS, "-"),
    "＋": "+", "＊": "*", "＃": "#", "，": ",", "；": ";", "（": "(", "）": ")", "．": ".", "\u3000": " ",
})


def fold_number(text: str) -> str:
    """``text`` with full-width digits, signs and hyphen look-alikes as the spec's ASCII
    characters ('（０３）６４４０ー２９７９' -> '(03)6440-2979'). Other characters are kept, so
    text that is not a number stays what it was."""
    return text.translate(_FOLD)


_LAYOUT = r"[\s().]+"


def phone_field_text(text: str) -> str:
    """What a phone field sends for what was typed: folded, and without the spaces,
    parentheses and dots that only lay a number out ('（０３）６４４０ ２９７９' ->
    '036440-2979'). Anything else stays, so a letter is still refused by validation."""
    import re

    return re.sub(_LAYOUT, "", fold_number(text))


def digits(number: str) -> str:
    """Only the digits of ``number``, full width folded ('+81 3-1234' -> '8131234'): ASCII
    0-9, as `re`'s ``[0-9]``; other scripts' digits are not the spec's."""
    text = fold_number(number)
    if text.isascii():
        return text if text.isdigit() else text.translate(_ASCII_NON_DIGITS)
    return "".join(filter(_ASCII_DIGITS.__contains__, text))


def _too_short(text: str, rules: RegionRules) -> bool:
    return (rules.shortest > 0 and text.isascii() and text.isdigit() and len(text) < rules.shortest
            and not (rules.international_prefix and text.startswith(rules.international_prefix)))


def _fast_e164(text: str, region: str) -> str | None:
    """E.164 for the everyday cases, from the region's metadata, without a full parse:
    '+81 3-...' / '010 81 3-...' (this region's country code) and '03-...' (trunk prefix).
    None means "not an everyday case": the caller then asks phonenumbers.parse."""
    if not _plain(text):
        return None
    compiled = compiled_region(region)
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
    text = fold_number(number).strip()
    if len(digits(text)) < 5:  # extensions and short codes are not E.164 numbers
        return None
    compiled = compiled_region(region)
    if compiled is not None and _too_short(text, compiled.rules):
        return None
    fast = _fast_e164(text, region)
    if fast is not None:
        return fast
    return _parsed_e164(text, region)


def _possible(text: str, region: str) -> Any:
    """phonenumbers' parse of ``text`` when it is a possible number, else None."""
    import phonenumbers

    try:
        parsed = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None
    return parsed if phonenumbers.is_possible_number(parsed) else None


def _parsed_e164(text: str, region: str) -> str | None:
    """The full phonenumbers parse: the reference the fast path agrees with."""
    import phonenumbers

    parsed = _possible(text, region)
    return None if parsed is None else phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


@lru_cache(maxsize=16384)
def for_display(number: str | None, region: str = DEFAULT_REGION) -> str:
    """``number`` as people in ``region`` write it: the one display rule of every screen
    ('0312345678', '+81312345678' and '+81-3-1234-5678' -> '03-1234-5678'; a foreign one
    internationally, '+1 650-253-0000'); an extension or anything unreadable stays as it
    came. Forms and exports keep the stored form (docs/desk.md). Cached: a list paints
    its visible rows' numbers on every frame.

    A number of the region's own that the fast path reads is written by the region's
    formats (kept in the cache, :mod:`corpdir.phone_rules`), as phonenumbers writes it:
    importing phonenumbers costs ~10 ms, which the TUI's first frame need not pay.
    phonenumbers writes the rest (foreign numbers, the odd spellings)."""
    number = number or ""
    if len(digits(number)) < 5:
        return number
    fast = _fast_e164(fold_number(number).strip(), region)
    if fast is not None:
        compiled = compiled_region(region)
        shown = compiled.national(fast[1 + len(compiled.rules.country_code):]) if compiled is not None else None
        if shown is not None:
            return shown
    import phonenumbers

    parsed = _possible(fold_number(number), region)
    if parsed is None:
        return number
    same_country = parsed.country_code == phonenumbers.country_code_for_region(region)
    style = phonenumbers.PhoneNumberFormat.NATIONAL if same_country else phonenumbers.PhoneNumberFormat.INTERNATIONAL
    return phonenumbers.format_number(parsed, style)


def match_key(number: str, region: str = DEFAULT_REGION) -> str:
    """The key two numbers share when they are the same number: E.164 when the number
    parses, else its digits (extensions such as '1234' stay '1234')."""
    return e164(number, region) or digits(number)


def same_number(a: str, b: str, region: str = DEFAULT_REGION) -> bool:
    ka, kb = match_key(a, region), match_key(b, region)
    return bool(ka) and ka == kb


_LIST_SEPARATORS = r"[\r\n,;、，；\t]+"
_MAX_GROUP = 6  # spaces inside one number: at most '+81 3 1234 5678'-like groups of six


def _starts_number(token: str, region: str) -> bool:
    """A token that can begin a number written with spaces: '+81', '(03)', '090' (trunk)."""
    compiled = compiled_region(region)
    trunk = compiled.rules.trunk if compiled is not None else None
    return token[0] in "+(" or bool(trunk and token.startswith(trunk))


def _split_spaced(tokens: list[str], region: str) -> list[str]:
    """Space-separated tokens as entries: from the left, the shortest run that is one number
    (it must start like one: '+', '(' or the trunk prefix; '03 1234 5678 9012' is a number
    and an extension), else one token; words without a digit stay together as one entry
    (reported as not a number)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        j = i + 1
        if not any(ch.isdigit() for ch in tokens[i]):
            while j < len(tokens) and not any(ch.isdigit() for ch in tokens[j]):
                j += 1
        elif _starts_number(tokens[i], region):
            j = next((k for k in range(i + 1, min(len(tokens), i + _MAX_GROUP) + 1)
                      if e164(" ".join(tokens[i:k]), region)), i + 1)
        out.append(" ".join(tokens[i:j]))
        i = j
    return out


def split_numbers(text: str, region: str = DEFAULT_REGION) -> list[str]:
    """The entries in what someone typed or pasted, in order, blanks and repeats dropped,
    each folded to the spec's characters (:func:`fold_number`).

    Lines, commas, semicolons (also Japanese 、，；) and tabs separate entries. Spaces do
    too, except inside one number: '090 1111 2222' is one number, '03-7058-3199 2251
    +81756782019' three, '0756784245 2310 ０３６４４０２９７９ 999-9999 abc' five (the last
    is reported as no number). A line with no token that starts like a number but that is
    one as a whole stays whole ('650 253 0000' in the US)."""
    out: list[str] = []
    import re

    for part in re.split(_LIST_SEPARATORS, fold_number(text)):
        tokens = part.split()
        if len(tokens) > 1 and (e164(part, region) is None or any(_starts_number(t, region) for t in tokens)):
            out += _split_spaced(tokens, region)
        elif tokens:
            out.append(part.strip())
    return list(dict.fromkeys(out))


# -- a caller's number as it arrives -------------------------------------------------------
# A feed, a PBX and a phone send the same caller in many spellings: 'sip:0312345678@pbx;user=phone',
# 'tel:+81-3-1234-5678;phone-context=...', '%2B81312345678' (a '+' URL-encoded once too
# often), full-width digits, an outside-line prefix ('0' then the national number, or
# '0' then '0081...'). Every surface that asks "whose number is this?" reads it here, so
# they all look up one number.
_URI = r"^(?:sips?|tel):([^@;>]*)"  # case ignored; read by str methods when the scheme is ASCII
_SCHEMES = frozenset({"sip", "sips", "tel"})
# What a caller who withheld the number arrives as (besides nothing at all): SIP's
# anonymous URI (RFC 3323), and the words PBXs put in the caller-ID number field.
WITHHELD = frozenset({"anonymous", "restricted", "private", "withheld", "unavailable", "unknown", "blocked", "p", "o"})
OUTSIDE_LINE_PREFIXES = ("0", "9")  # tried, most likely last, where no setting says otherwise
_MIN_NUMBER = 5  # shorter: an extension, never stripped of a prefix


def caller_number(raw: str) -> str | None:
    """The number a caller's side sent, as text a number can be read from ('sip:0312345678@pbx;user=phone'
    -> '0312345678'; '%2B81...' -> '+81...'; full width folded). None: the caller withheld it."""
    text = fold_number((raw or "").strip().strip("<>").strip())
    if "%" in text:
        from urllib.parse import unquote  # only for an encoded number: not on every lookup's path

        text = unquote(text)
    text = _uri_number(text)
    text = text.split(";", 1)[0].strip()
    if not text or (text.lower() in WITHHELD and not digits(text)):
        return None
    return text


def _uri_number(text: str) -> str:
    """What a ``sip:``/``sips:``/``tel:`` URI (any case) holds before any '@', ';' or '>';
    other text as it is. A non-ASCII scheme ('ſip': 'sip' to `re`) is read by the pattern."""
    scheme, colon, rest = text.partition(":")
    if colon and not scheme.isascii():
        import re

        match = re.match(_URI, text, re.IGNORECASE)
        return match.group(1) if match else text
    if not colon or scheme.lower() not in _SCHEMES:
        return text
    for i, ch in enumerate(rest):
        if ch in "@;>":
            return rest[:i]
    return rest


def number_forms(raw: str, region: str = DEFAULT_REGION, strip_prefixes: tuple[str, ...] | list[str] = OUTSIDE_LINE_PREFIXES) -> list[str]:
    """The spellings of a caller's number worth looking up, most likely first: as sent;
    E.164 when it is E.164 without its '+' ('81312345678'; a '+' in a query string arrives
    as a space); without an outside-line prefix ('00312345678', '0' + '0081312345678').
    [] for a withheld number or one without digits."""
    text = caller_number(raw)
    return sent_forms(text, digits(text), region, strip_prefixes) if text else []


def sent_forms(text: str, d: str, region: str, strip_prefixes: tuple[str, ...] | list[str]) -> list[str]:
    """:func:`number_forms` of a number already read (``text``, by :func:`caller_number`;
    ``d``, its digits): a caller-ID probe reads the number once."""
    if not d:
        return []
    forms = [text]
    rules = cached_region_rules(region)
    if rules is not None and not text.startswith("+") and d.startswith(rules.country_code) \
            and len(d) - len(rules.country_code) in rules.lengths:
        # a national number here starts with the trunk prefix: one that does not is E.164 first
        forms.insert(0 if rules.trunk and not d.startswith(rules.trunk) else 1, "+" + d)
    if rules is not None and d.startswith("00" + rules.country_code):
        forms.append("+" + d[2:])  # '0081...': a PBX that writes the international prefix most of the world dials
    for prefix in strip_prefixes:
        rest = d[len(prefix):]
        if d.startswith(prefix) and len(rest) >= _MIN_NUMBER:
            forms.append(rest)
            if rules is not None and rest.startswith("00" + rules.country_code):
                forms.append("+" + rest[2:])  # '0' + '0081...': the international form behind the line prefix
    return list(dict.fromkeys(forms))
