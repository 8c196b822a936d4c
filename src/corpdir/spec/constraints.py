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
from datetime import date
from typing import Annotated, Any, Callable, TypeVar

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import AfterValidator, AwareDatetime, Strict, ValidationInfo
from pydantic_core import PydanticCustomError

T = TypeVar("T")

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class Charset:
    """A set of allowed characters, as a regex body, with the words a user reads."""

    name: str
    chars: str  # regex character-class body, e.g. r"0-9*#,;+\-"
    description: str
    min_len: int = 0  # 1 where the spec says 'one or more'

    @property
    def regex(self) -> re.Pattern[str]:
        quant = "+" if self.min_len else "*"
        return re.compile(rf"[{self.chars}]{quant}")

    def check(self, value: str) -> str:
        if not self.regex.fullmatch(value):
            raise PydanticCustomError(
                "PATTERN", "{rule}: only {allowed}", {"rule": self.name, "allowed": self.description}
            )
        return value

    def one_or_more(self) -> Charset:
        return Charset(self.name, self.chars, self.description + " (at least one character)", 1)


@dataclass(frozen=True)
class Pattern:
    """A constraint that is a whole-string regex rather than a character set (MAC, URLs)."""

    name: str
    regex: re.Pattern[str]
    description: str

    def check(self, value: str) -> str:
        if not self.regex.fullmatch(value):
            raise PydanticCustomError(
                "PATTERN", "{rule}: must be {allowed}", {"rule": self.name, "allowed": self.description}
            )
        return value


_URL_FAMILY = r"A-Za-z0-9.!#$%&'*+/=?:^_`{}~|\-"
_URL_FAMILY_WORDS = "letters, digits and . ! # $ % & ' * + / = ? : ^ _ ` { } ~ - |"

PHONE = Charset("PHONE_CHARS", r"0-9*#,;+\-", "digits 0-9 and * # , ; + -")
PHONE_1 = PHONE.one_or_more()
MAC = Pattern(
    "MAC",
    re.compile(r"(?:[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})?"),
    "empty, or six pairs of hex digits separated by colons (aa:bb:cc:dd:ee:ff)",
)
URL_OPT = Pattern(
    "URL_OPT",
    re.compile(rf"(?:https?://)?[{_URL_FAMILY}]*"),
    f"an optional http:// or https:// prefix, then {_URL_FAMILY_WORDS}",
)
URL_HTTP = Pattern(
    "URL_HTTP",
    re.compile(rf"(?:https?://[{_URL_FAMILY}]*)?"),
    f"empty, or http:// or https:// followed by {_URL_FAMILY_WORDS}",
)
LOGIN_ID = Charset(
    "loginId", r"@A-Za-z0-9.!#$%&'*+/=?^_`{}~|\-",
    "@, letters, digits and . ! # $ % & ' * + / = ? ^ _ ` { } ~ - |", 1,
)
LOGIN_ID_WITH_COLON = Charset("loginId", LOGIN_ID.chars + ":", LOGIN_ID.description + " :", 1)
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


def _not_blank(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("BLANK", "must not be empty or only whitespace")
    return value


def _unique(values: list[T]) -> list[T]:
    seen: list[Any] = []
    for v in values:
        if v in seen:
            raise PydanticCustomError("NOT_UNIQUE", "items must be unique; {item} repeats", {"item": v})
        seen.append(v)
    return values


def _first_of_duplicates(values: list[T]) -> list[T]:
    """The profile lists' rule: for duplicates only the first is stored."""
    out: list[T] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def text(max_len: int, rule: Charset | Pattern | None = None, *, not_blank: bool = False) -> Any:
    """A string of at most ``max_len`` characters, optionally NOT_BLANK and/or limited to a rule."""
    parts: list[Any] = [Strict(), MaxLen(max_len)]
    if rule is not None and getattr(rule, "min_len", 0):
        parts.append(MinLen(rule.min_len))
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


def varies(rule_name: str) -> AfterValidator:
    """Apply the rule named ``rule_name`` of the variant in the validation context (default C).

    The variant is passed as ``context={"variant": "B"}`` (or a Variant object) when validating.
    """

    def check(value: Any, info: ValidationInfo) -> Any:
        from corpdir.spec.variants import variant_from_context

        return variant_from_context(info.context).apply(rule_name, value)

    check.__name__ = f"variant_rule_{rule_name}"
    return AfterValidator(check)


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
MacAddress = text(17, MAC)
UrlOpt = text(256, URL_OPT)
UrlHttp = text(256, URL_HTTP)
Email = text(256)

StrictBool = Annotated[bool, Strict()]
DateTime = AwareDatetime  # ISO 8601 with an offset or Z; a naive value is INVALID_TYPE
Date = date

Validator = Callable[[Any], Any]
