"""The error object of spec section 7, its statuses, and validation failures as details.

``details_from(exc)`` turns a pydantic ValidationError into the ``details`` array with the
codes and JSON paths of http-contract.md, so server answers, client pre-flight failures
and form messages all say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Iterable

from pydantic import BaseModel, Field, ValidationError

from corpdir.spec.constraints import DATE_TIME_WORDS


class DetailCode(StrEnum):
    REQUIRED = "REQUIRED"
    BLANK = "BLANK"
    TOO_LONG = "TOO_LONG"
    PATTERN = "PATTERN"
    OUT_OF_RANGE = "OUT_OF_RANGE"
    TOO_MANY_ITEMS = "TOO_MANY_ITEMS"
    NOT_UNIQUE = "NOT_UNIQUE"
    INVALID_ENUM = "INVALID_ENUM"
    INVALID_TYPE = "INVALID_TYPE"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    NOT_SETTABLE_FOR_USER_TYPE = "NOT_SETTABLE_FOR_USER_TYPE"
    NOT_EDITABLE = "NOT_EDITABLE"


class ErrorStatus(StrEnum):
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    RESOURCE_PERMISSION_DENIED = "RESOURCE_PERMISSION_DENIED"
    API_PERMISSION_DENIED = "API_PERMISSION_DENIED"
    ACCESS_DENIED = "ACCESS_DENIED"
    NOT_FOUND = "NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    NOT_ACCEPTABLE = "NOT_ACCEPTABLE"
    CONFLICT = "CONFLICT"
    ALREADY_EXISTS = "ALREADY_EXISTS"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    UNPROCESSABLE = "UNPROCESSABLE"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"  # 429 (http-contract.md)
    INTERNAL_SERVER_ERROR = "INTERNAL_SERVER_ERROR"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"


HTTP_STATUS: dict[ErrorStatus, int] = {
    ErrorStatus.INVALID_ARGUMENT: 400,
    ErrorStatus.UNAUTHENTICATED: 401,
    ErrorStatus.RESOURCE_PERMISSION_DENIED: 403,
    ErrorStatus.API_PERMISSION_DENIED: 403,
    ErrorStatus.ACCESS_DENIED: 403,
    ErrorStatus.NOT_FOUND: 404,
    ErrorStatus.METHOD_NOT_ALLOWED: 405,
    ErrorStatus.NOT_ACCEPTABLE: 406,
    ErrorStatus.CONFLICT: 409,
    ErrorStatus.ALREADY_EXISTS: 409,
    ErrorStatus.PAYLOAD_TOO_LARGE: 413,
    ErrorStatus.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorStatus.UNPROCESSABLE: 422,
    ErrorStatus.RESOURCE_EXHAUSTED: 429,
    ErrorStatus.INTERNAL_SERVER_ERROR: 500,
    ErrorStatus.SERVICE_UNAVAILABLE: 503,
}


class ErrorDetail(BaseModel):
    field: str = ""
    code: str = ""
    description: str = ""


class ErrorBody(BaseModel):
    status: str = ""
    message: str = ""
    details: list[ErrorDetail] = Field(default_factory=list)


class ErrorObject(BaseModel):
    """{error: {status, message, details: [{field, code, description}]}}"""

    error: ErrorBody

    @classmethod
    def of(cls, status: ErrorStatus | str, message: str, details: Iterable[ErrorDetail] = ()) -> ErrorObject:
        return cls(error=ErrorBody(status=str(status), message=message, details=list(details)))


# pydantic error type -> detail code. Custom errors raised by corpdir.spec already carry
# the code as their type and pass through unchanged.
_PYDANTIC_CODES: dict[str, DetailCode] = {
    "missing": DetailCode.REQUIRED,
    "string_too_long": DetailCode.TOO_LONG,
    "string_too_short": DetailCode.PATTERN,  # 'one or more' character sets
    "string_pattern_mismatch": DetailCode.PATTERN,
    "greater_than_equal": DetailCode.OUT_OF_RANGE,
    "less_than_equal": DetailCode.OUT_OF_RANGE,
    "greater_than": DetailCode.OUT_OF_RANGE,
    "less_than": DetailCode.OUT_OF_RANGE,
    "too_long": DetailCode.TOO_MANY_ITEMS,
    "too_short": DetailCode.OUT_OF_RANGE,
    "enum": DetailCode.INVALID_ENUM,
    "literal_error": DetailCode.INVALID_ENUM,
    "extra_forbidden": DetailCode.UNKNOWN_FIELD,
}
_CUSTOM_CODES = {c.value for c in DetailCode}


def json_path(loc: Iterable[int | str]) -> str:
    """('briefHistories', 2, 'briefHistoryDate') -> 'briefHistories[2].briefHistoryDate'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _code(error_type: str) -> str:
    if error_type in _CUSTOM_CODES:
        return error_type
    return _PYDANTIC_CODES.get(error_type, DetailCode.INVALID_TYPE).value


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# What a form shows for pydantic's own error types: the rule, in an end user's words.
# Errors raised by corpdir.spec carry their own description.
_DESCRIPTIONS: dict[str, Callable[[dict[str, Any]], str]] = {
    "missing": lambda ctx: "is required",
    "extra_forbidden": lambda ctx: "is not a field this operation takes",
    "string_too_long": lambda ctx: f"at most {_count(ctx['max_length'], 'character')}",
    "string_too_short": lambda ctx: f"at least {_count(ctx['min_length'], 'character')}",
    "too_long": lambda ctx: f"at most {_count(ctx['max_length'], 'item')}",
    "too_short": lambda ctx: f"at least {_count(ctx['min_length'], 'item')}",
    "greater_than_equal": lambda ctx: f"must be {ctx['ge']} or more",
    "less_than_equal": lambda ctx: f"must be {ctx['le']} or less",
    "greater_than": lambda ctx: f"must be more than {ctx['gt']}",
    "less_than": lambda ctx: f"must be less than {ctx['lt']}",
    "enum": lambda ctx: f"must be one of {ctx['expected']}",
    "literal_error": lambda ctx: f"must be one of {ctx['expected']}",
    "timezone_aware": lambda ctx: f"must be {DATE_TIME_WORDS}",
    "string_type": lambda ctx: "must be text",
    "int_type": lambda ctx: "must be a whole number",
    "int_parsing": lambda ctx: "must be a whole number",
    "int_from_float": lambda ctx: "must be a whole number",
    "bool_type": lambda ctx: "must be true or false",
    "bool_parsing": lambda ctx: "must be true or false",
    "list_type": lambda ctx: "must be a list",
    "model_type": lambda ctx: "must be an object",
    "model_attributes_type": lambda ctx: "must be an object",
    "dict_type": lambda ctx: "must be an object",
    "json_invalid": lambda ctx: "is not valid JSON",
}


def _description(err: Any) -> str:
    describe = _DESCRIPTIONS.get(err["type"])
    if describe:
        try:
            return describe(err.get("ctx", {}))
        except (KeyError, IndexError, TypeError):
            pass
    return err["msg"]


def details_from(exc: ValidationError, *, prefix: tuple[int | str, ...] = ()) -> list[ErrorDetail]:
    """A pydantic ValidationError as the spec's ``details`` array (one entry per failure)."""
    out: list[ErrorDetail] = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        loc = prefix + tuple(err["loc"])
        detail = ErrorDetail(field=json_path(loc), code=_code(err["type"]), description=_description(err))
        if (detail.field, detail.code) not in seen:
            seen.add((detail.field, detail.code))
            out.append(detail)
    return out


@dataclass
class SpecViolation(Exception):
    """A request that breaks the spec's rules, with the details the server would answer."""

    details: list[ErrorDetail]
    message: str = "the request has invalid fields"

    def __str__(self) -> str:
        lines = [f"{d.field or '(body)'}: {d.code} {d.description}" for d in self.details]
        return self.message + ("\n  " + "\n  ".join(lines) if lines else "")

    def for_field(self, field: str) -> list[ErrorDetail]:
        return [d for d in self.details if d.field == field or d.field.startswith(field + "[") or d.field.startswith(field + ".")]
