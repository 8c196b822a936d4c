"""Every field constraint of the interface spec, written once as a reusable type.

The server's validation, the client's pre-flight check and the TUI's inline form errors
all go through these types, so a limit changes in one place. Failures raise
``PydanticCustomError`` whose *type* is already the detail code of http-contract.md
(BLANK, PATTERN, NOT_UNIQUE, ...); pydantic's own error types (too long, out of range,
missing) are mapped to codes in :mod:`corpdir.spec.errors`.

Rules that differ between the spec's variants A, B and C are not here: they are data in
:mod:`corpdir.spec.variants` and applied with :func:`varies`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Callable, TypeVar

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, Strict, ValidationInfo
from pydantic_core import PydanticCustomError

T = TypeVar("T")

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class Charset:
    """A set of allowed characters, as a regex body, with the words a user reads."""

    name: str
    chars: str  # regex character-class body, e.g. r"0-9*#,;+\-"
    description: str  # the allowed characters in words, e.g. "digits 0-9 and * # , ; + -"
    min_len: int = 0  # 1 where the spec says 'one or more'

    @property
    def regex(self) -> re.Pattern[str]:
        quant = "+" if self.min_len else "*"
        return re.compile(rf"[{self.chars}]{quant}")

    @property
    def message(self) -> str:
        """What a form shows under the field when the value breaks this rule."""
        if self.min_len:
            return f"must not be empty and may contain only {self.description}"
        return f"may contain only {self.description}"

    def check(self, value: str) -> str:
        if not self.regex.fullmatch(value):
            raise PydanticCustomError("PATTERN", "{message}", {"rule": self.name, "message": self.message})
        return value

    def one_or_more(self) -> Charset:
        return Charset(self.name, self.chars, self.description, 1)

    def plus(self, chars: str, words: str) -> Charset:
        """This set widened by ``chars`` (regex body), named in words as ``words``."""
        return Charset(self.name, self.chars + chars, f"{words}, {self.description}", self.min_len)


@dataclass(frozen=True)
class Pattern:
    """A constraint that is a whole-string regex rather than a character set (MAC, URLs)."""

    name: str
    regex: re.Pattern[str]
    description: str

    def check(self, value: str) -> str:
        if not self.regex.fullmatch(value):
            raise PydanticCustomError("PATTERN", "must be {allowed}", {"rule": self.name, "allowed": self.description})
        return value


_URL_FAMILY = r"A-Za-z0-9.!#$%&'*+/=?:^_`{}~|\-"
_URL_FAMILY_WORDS = "letters, digits and . ! # $ % & ' * + / = ? : ^ _ ` { } ~ - |"
# The family allows ':' and '/', so "ftp://x" would pass it: a scheme other than the
# http:// or https:// prefix is refused explicitly. A prefix needs an address after it:
# "https://" alone is not a web address (the same lookahead refuses it as plain text).
_NO_OTHER_SCHEME = r"(?![A-Za-z][A-Za-z0-9+.\-]*://)"

PHONE = Charset("PHONE_CHARS", r"0-9*#,;+\-", "digits 0-9 and * # , ; + -")
PHONE_1 = PHONE.one_or_more()
MAC = Pattern(
    "MAC",
    re.compile(r"(?:[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})?"),
    "empty, or six pairs of hexadecimal digits separated by colons, e.g. aa:bb:cc:dd:ee:ff",
)
URL_OPT = Pattern(
    "URL_OPT",
    re.compile(rf"(?:https?://{_NO_OTHER_SCHEME}[{_URL_FAMILY}]+|{_NO_OTHER_SCHEME}[{_URL_FAMILY}]*)"),
    f"a web address (http:// or https:// may be left out) of only {_URL_FAMILY_WORDS}",
)
URL_HTTP = Pattern(
    "URL_HTTP",
    re.compile(rf"(?:https?://{_NO_OTHER_SCHEME}[{_URL_FAMILY}]+)?"),
    f"empty, or a web address starting with http:// or https:// followed by only {_URL_FAMILY_WORDS}",
)
LOGIN_ID = Charset(
    "loginId", r"@A-Za-z0-9.!#$%&'*+/=?^_`{}~|\-",
    "letters, digits and @ . ! # $ % & ' * + / = ? ^ _ ` { } ~ - |", 1,
)
LOGIN_ID_WITH_COLON = LOGIN_ID.plus(":", "colons")  # variant A
DEVICE_ID = Charset("deviceId", r"A-Za-z0-9", "letters and digits")
PBX_PARTITION = Charset("pbxPartition", r"A-Za-z0-9 _\-", "letters, digits, space, _ and -")
CTI_PORT = Charset("ctiPort", r"A-Za-z0-9._\-", "letters, digits, . _ and -")
ANPI_LOGIN_ID = Charset("anpiLoginId", r"A-Za-z0-9=^_{}~@.\-", "letters, digits and = ^ _ { } ~ @ . -")
ANPI_LOGIN_ID_NARROW = Charset("anpiLoginId", r"A-Za-z0-9", "letters and digits")
BLE_ID = Charset("bleId", r"A-Za-z0-9:_.@\-", "letters, digits and : _ . @ -")
BLE_ID_NARROW = Charset("bleId", r"A-Za-z0-9:", "letters, digits and :")
M365_ACCOUNT = Charset("m365Account", r"A-Za-z0-9.\-_@", "letters, digits and . - _ @")
GWS_ACCOUNT = Charset("gwsAccount", r"A-Za-z0-9.\-'_@", "letters, digits and . - ' _ @")
DIVISION_CODE = Charset("divisionCode", r"A-Za-z0-9\-_.@(){}\[\]", "letters, digits and - _ . @ ( ) { } [ ]", 1)

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
ISO_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}.*")
DATE_WORDS = "a valid date written year-month-day, e.g. 2024-04-01"
DATE_TIME_WORDS = "a valid date-time with a time-zone offset or Z, e.g. 2024-04-01T09:30:00+09:00"


def _not_blank(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("BLANK", "must not be empty or only whitespace")
    return value


def _unique(values: list[T]) -> list[T]:
    seen: list[Any] = []
    for i, v in enumerate(values):
        if v in seen:
            shown = v.value if hasattr(v, "value") else v
            what = shown if isinstance(shown, (str, int)) else f"entry {seen.index(v) + 1}"
            raise PydanticCustomError(
                "NOT_UNIQUE", "must not repeat an entry: {item} appears more than once", {"item": what, "index": i}
            )
        seen.append(v)
    return values


def _iso(pattern: re.Pattern[str], kind: type[date], words: str) -> Callable[[Any], Any]:
    """A before-step that reads the ISO text of the spec into a date or datetime.

    Parsing here (not by pydantic) makes Python dicts and strict JSON behave alike and
    refuses what pydantic would otherwise take: numbers and numeric strings as Unix times.
    """

    def parse(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if isinstance(value, str) and pattern.fullmatch(value):
            try:
                return kind.fromisoformat(value)
            except ValueError:
                pass
        raise PydanticCustomError("INVALID_TYPE", "must be {words}", {"words": words})

    return parse


def _first_of_duplicates(values: list[T]) -> list[T]:
    """The profile lists' rule: for duplicates only the first is stored."""
    out: list[T] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def text(max_len: int | None, rule: Charset | Pattern | None = None, *, not_blank: bool = False) -> Any:
    """A string of at most ``max_len`` characters, optionally NOT_BLANK and/or limited to a rule.

    ``max_len=None``: no length limit of its own (the spec gives none; the rule's shape bounds it).

    A 'one or more' character set refuses "" itself (PATTERN, with the set's own words)."""
    parts: list[Any] = [Strict()] if max_len is None else [Strict(), MaxLen(max_len)]
    if not_blank:
        parts.append(AfterValidator(_not_blank))
    if rule is not None:
        parts.append(AfterValidator(rule.check))
    return Annotated[str, *parts]


def int_range(lo: int, hi: int) -> Any:
    return Annotated[int, Strict(), Ge(lo), Le(hi)]


def items(item_type: Any, max_items: int, *, min_items: int = 0, unique: bool = False, keep_first: bool = False) -> Any:
    parts: list[Any] = [MaxLen(max_items)]
    if min_items:
        parts.append(MinLen(min_items))
    if unique:
        parts.append(AfterValidator(_unique))
    if keep_first:
        parts.append(AfterValidator(_first_of_duplicates))
    return Annotated[list[item_type], *parts]


def _variant_rule(rule_name: str) -> Callable[[Any, ValidationInfo], Any]:
    def check(value: Any, info: ValidationInfo) -> Any:
        from corpdir.spec.variants import variant_from_context

        return variant_from_context(info.context).apply(rule_name, value)

    check.__name__ = f"variant_rule_{rule_name}"
    return check


def varies(rule_name: str) -> AfterValidator:
    """Apply the rule named ``rule_name`` of the variant in the validation context (default C).

    The variant is passed as ``context={"variant": "B"}`` (or a Variant object) when validating.
    """
    return AfterValidator(_variant_rule(rule_name))


def exists_in_variant(rule_name: str) -> BeforeValidator:
    """A field that only some variants have: checked before its value, so a field the
    variant lacks is UNKNOWN_FIELD whatever was sent in it."""
    return BeforeValidator(_variant_rule(rule_name))


# --- the named types -------------------------------------------------------------------
Int32 = int_range(INT32_MIN, INT32_MAX)
Int64 = int_range(INT64_MIN, INT64_MAX)
Id = int_range(1, INT64_MAX)
SortScore = int_range(0, 999_999_999)
Level = int_range(1, 10)
Seconds = int_range(0, INT32_MAX)

NotBlank50 = text(50, not_blank=True)
Phone = text(50, PHONE)
Phone1 = text(50, PHONE_1)
MacAddress = text(None, MAC)  # the spec gives no length: a wrong shape is PATTERN, not TOO_LONG
UrlOpt = text(256, URL_OPT)
UrlHttp = text(256, URL_HTTP)
Email = text(256)

StrictBool = Annotated[bool, Strict()]
# ISO 8601 with an offset or Z; a naive value or a number is INVALID_TYPE
DateTime = Annotated[AwareDatetime, BeforeValidator(_iso(ISO_DATE_TIME, datetime, DATE_TIME_WORDS))]
Date = Annotated[date, BeforeValidator(_iso(ISO_DATE, date, DATE_WORDS))]

Validator = Callable[[Any], Any]


def max_items(model: type[BaseModel], name: str) -> int | None:
    """The most items field ``name`` of ``model`` takes (its ``items(..., max_items)``), so a
    caller trims to the spec's number instead of writing it again (freeWords: 10)."""
    for part in model.model_fields[name].metadata:
        if isinstance(part, MaxLen):
            return part.max_length
    return None
