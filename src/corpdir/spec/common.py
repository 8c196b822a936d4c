"""Base models shared by every resource: request/response bases, the list page, paging.

Every model builds its validator on first use (``defer_build``): a process pays only for
the models it uses (the TUI's first screen needs users and divisions, not the other ~80).

Request models forbid unknown fields (400 UNKNOWN_FIELD) and leave every optional field
``OMIT`` (pydantic's MISSING sentinel): an omitted field is absent from the JSON body, which
is how partial edits say "unchanged". ``None`` is never a value to send; a cleared text
field is sent as ``""``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Generic, Mapping, TypeVar

from annotated_types import Ge, Le
from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic_core import PydanticCustomError
try:  # pydantic >= 2.14: no longer experimental
    from pydantic import MISSING
except ImportError:  # pragma: no cover - pydantic 2.12 / 2.13
    from pydantic.experimental.missing_sentinel import MISSING

from corpdir.spec.errors import ErrorDetail

T = TypeVar("T")

OMIT: Any = MISSING
"""The 'not sent' marker of request fields (distinct from None and from '')."""


class RequestModel(BaseModel):
    model_config = ConfigDict(extra="forbid", use_enum_values=False, validate_default=False, defer_build=True)

    def body(self) -> dict[str, Any]:
        """The JSON body: only the fields that were given."""
        return self.model_dump(mode="json", exclude_unset=True)

    def sent_fields(self) -> set[str]:
        return set(self.model_fields_set)

    def rule_violations(self, context: Mapping[str, Any]) -> list[ErrorDetail]:
        """Rules that span fields or need server state (see UserFields); none by default."""
        return []


class ResponseModel(BaseModel):
    """A record as the service returns it; fields outside the caller's range are None."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    def present(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class Page(BaseModel, Generic[T]):
    """Every list operation answers {hasMore, items}."""

    hasMore: bool
    items: list[T]


INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")
"""How an integer parameter is written: ASCII digits with an optional sign, nothing else
(no spaces, no '1.0', no full-width digits, no '1_000', all of which int() takes)."""
INTEGER_WORDS = "a whole number written with the digits 0-9 (and an optional sign)"


def integer_text(value: Any) -> Any:
    """A query, form or path value as an integer, held to INTEGER_TEXT."""
    if isinstance(value, str):
        if not INTEGER_TEXT.fullmatch(value):
            raise PydanticCustomError("INVALID_TYPE", "must be {words}", {"words": INTEGER_WORDS})
        return int(value)
    return value


def q_int(lo: int, hi: int) -> Any:
    """An integer query parameter: query strings arrive as text, read by ``integer_text``."""
    return Annotated[int, Ge(lo), Le(hi), BeforeValidator(integer_text)]


PageNumber = q_int(0, 2**31 - 1)
PageSize100 = q_int(1, 100)
QueryInt64 = q_int(-(2**63), 2**63 - 1)
"""An int64 query parameter (an identifier filter): a number past int64 is OUT_OF_RANGE, not
passed on to storage that cannot hold it."""


class QueryModel(BaseModel):
    """Query parameters of a list operation. Unknown parameters are rejected (UNKNOWN_FIELD)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    def params(self) -> dict[str, Any]:
        """Only the parameters that were given, JSON-typed (lists stay lists)."""
        return self.model_dump(mode="json", exclude_unset=True)
