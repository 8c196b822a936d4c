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
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from datetime import date, datetime, timedelta, timezone
from typing import Annotated, Any, Callable, Mapping, TypeVar

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, Strict, ValidationInfo
from pydantic_core import PydanticCustomError

T = TypeVar("T")

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class Published:
    """JSON Schema keywords for a rule that a validator enforces, so that /openapi.json
    states the rule (a plain ``AfterValidator`` is invisible to the schema).

    A ``pattern`` is anchored (``^...$``, ECMA-262 as JSON Schema wants it); a second
    pattern on the same value goes into ``allOf``.
    """

    def __init__(self, **keywords: Any) -> None:
        self.keywords = keywords

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema = dict(handler(core_schema))
        return publish(schema, self.keywords)

    def __repr__(self) -> str:
        return f"Published({self.keywords!r})"


def publish(schema: dict[str, Any], keywords: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with ``keywords`` added (a second pattern goes into allOf)."""
    for key, value in keywords.items():
        if key == "pattern" and "pattern" in schema and schema["pattern"] != value:
            schema.setdefault("allOf", []).append({"pattern": value})
        else:
            schema[key] = value
    return schema


@dataclass(frozen=True)
class Charset:
    """A set of allowed characters, as a regex body, with the words a user reads."""

    name: str
    chars: str  # regex character-class body, e.g. r"0-9*#,;+\-"
    description: str  # the allowed characters in words, e.g. "digits 0-9 and * # , ; + -"
    min_len: int = 0  # 1 where the spec says 'one or more'

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """Compiled once per set: every phone field of every record validated asks for it."""
        quant = "+" if self.min_len else "*"
        return re.compile(rf"[{self.chars}]{quant}")

    @property
    def message(self) -> str:
        """What a form shows under the field when the value breaks this rule."""
        if self.min_len:
            return f"must not be empty and may contain only {self.description}"
        return f"may contain only {self.description}"

    @property
    def json_pattern(self) -> str:
        return f"^{self.regex.pattern}$"

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

    @property
    def json_pattern(self) -> str:
        return f"^{self.regex.pattern}$"

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
SEARCH_TEXT = Pattern("SEARCH_TEXT", re.compile(r"[^\x00]*"), "text without the NUL character (U+0000)")
"""Words of a partial-match filter: the full-text index cannot take a NUL, and no stored
name is searched for one."""
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


NOT_BLANK_JSON_PATTERN = r"\S"
"""Published for NOT_BLANK: some character that is not whitespace."""
UNIQUE = Published(uniqueItems=True)


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


DATE_TIME_MIN = datetime(1000, 1, 1, tzinfo=timezone.utc)
DATE_TIME_MAX = datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=timezone.utc)
DATE_TIME_RANGE_WORDS = "from year 1000 to year 9999 (in UTC)"
DATE_TIME_JSON_PATTERN = r"^[1-9][0-9]{3}-"
"""What /openapi.json says of the range: a four-digit year from 1000 (the UTC bound of
9999-12-31 with a negative offset is not expressible as a pattern; the server refuses it)."""


def _in_range(value: datetime) -> datetime:
    """A date-time the service can store: UTC, four-digit years (ISO 8601 needs four digits,
    and a year-120 time written back as '120-01-09T...' was unreadable to the client).
    Converting near the ends of the calendar overflows: that is out of range too."""
    try:
        utc = value.astimezone(timezone.utc)
    except (OverflowError, ValueError):
        utc = None
    if utc is None or not DATE_TIME_MIN <= utc <= DATE_TIME_MAX + timedelta(microseconds=999):
        raise PydanticCustomError("OUT_OF_RANGE", "must be a date-time {range}", {"range": DATE_TIME_RANGE_WORDS})
    return value


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
        parts += [AfterValidator(_not_blank), Published(pattern=NOT_BLANK_JSON_PATTERN)]
    if rule is not None:
        parts += [AfterValidator(rule.check), Published(pattern=rule.json_pattern)]
    return Annotated[str, *parts]


def _whole_number(value: Any) -> Any:
    """JSON has one kind of number: 442.0 is the integer 442 (JSON Schema says so too, and
    some encoders write it); 5.5, "5" and true stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def int_range(lo: int, hi: int) -> Any:
    return Annotated[int, Strict(), Ge(lo), Le(hi), BeforeValidator(_whole_number)]


def items(item_type: Any, max_items: int, *, min_items: int = 0, unique: bool = False, keep_first: bool = False) -> Any:
    parts: list[Any] = [MaxLen(max_items)]
    if min_items:
        parts.append(MinLen(min_items))
    if unique:
        parts += [AfterValidator(_unique), UNIQUE]
    if keep_first:
        parts.append(AfterValidator(_first_of_duplicates))
    return Annotated[list[item_type], *parts]


def _variant_rule(rule_name: str) -> Callable[[Any, ValidationInfo], Any]:
    def check(value: Any, info: ValidationInfo) -> Any:
        from corpdir.spec.variants import variant_from_context

        return variant_from_context(info.context).apply(rule_name, value)

    check.__name__ = f"variant_rule_{rule_name}"
    return check


PUBLISHED_VARIANT: ContextVar[Any] = ContextVar("PUBLISHED_VARIANT", default=None)
"""The variant whose rules a JSON schema being generated states (None: C). Set by the
server's /openapi.json builder around ``model_json_schema``."""


def _variant_json_schema(rule_name: str, schema: dict[str, Any]) -> dict[str, Any]:
    from corpdir.spec.variants import variant_from_context

    return variant_from_context({"variant": PUBLISHED_VARIANT.get()}).json_schema(rule_name, schema)


@dataclass(frozen=True)
class _VariesAfter(AfterValidator):
    rule: str = ""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        return _variant_json_schema(self.rule, dict(handler(core_schema)))


@dataclass(frozen=True)
class _VariesBefore(BeforeValidator):
    rule: str = ""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        return _variant_json_schema(self.rule, dict(handler(core_schema)))


def varies(rule_name: str) -> AfterValidator:
    """Apply the rule named ``rule_name`` of the variant in the validation context (default C).

    The variant is passed as ``context={"variant": "B"}`` (or a Variant object) when validating;
    a JSON schema states the rule of ``PUBLISHED_VARIANT``.
    """
    return _VariesAfter(_variant_rule(rule_name), rule=rule_name)


def exists_in_variant(rule_name: str) -> BeforeValidator:
    """A field that only some variants have: checked before its value, so a field the
    variant lacks is UNKNOWN_FIELD whatever was sent in it."""
    return _VariesBefore(_variant_rule(rule_name), rule=rule_name)


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
SearchText50 = text(50, SEARCH_TEXT)
SearchText200 = text(200, SEARCH_TEXT)

StrictBool = Annotated[bool, Strict()]
# ISO 8601 with an offset or Z; a naive value or a number is INVALID_TYPE
DateTime = Annotated[
    AwareDatetime, BeforeValidator(_iso(ISO_DATE_TIME, datetime, DATE_TIME_WORDS)), AfterValidator(_in_range),
    Published(pattern=DATE_TIME_JSON_PATTERN),
]
Date = Annotated[date, BeforeValidator(_iso(ISO_DATE, date, DATE_WORDS))]

Validator = Callable[[Any], Any]


def max_items(model: type[BaseModel], name: str) -> int | None:
    """The most items field ``name`` of ``model`` takes (its ``items(..., max_items)``), so a
    caller trims to the spec's number instead of writing it again (freeWords: 10)."""
    for part in model.model_fields[name].metadata:
        if isinstance(part, MaxLen):
            return part.max_length
    return None
