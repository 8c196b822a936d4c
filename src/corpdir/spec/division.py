"""The division resource (spec 2.5) and the D1 query."""

from __future__ import annotations

from typing import Annotated

from annotated_types import MaxLen
from pydantic import Strict

from corpdir.spec import constraints as c
from corpdir.spec.common import OMIT, PageNumber, PageSize100, QueryInt64, QueryModel, RequestModel, ResponseModel
from corpdir.spec.constraints import exists_in_variant, varies

DivisionCode = Annotated[str, Strict(), varies("divisionCode")]


class DivisionFields(RequestModel):
    divisionCode: DivisionCode = OMIT
    divisionName: c.text(100, not_blank=True) = OMIT
    divisionNameKana: c.text(100) = OMIT
    divisionNameAlphabet: c.text(100) = OMIT
    divisionPhoneNum: c.Phone = OMIT
    divisionUrl: c.UrlOpt = OMIT
    sortScore: c.SortScore = OMIT


class DivisionCreate(DivisionFields):
    """D2 body. Without parentDivisionId the division is created at the top level."""

    parentDivisionId: c.Id = OMIT
    divisionCode: DivisionCode
    divisionName: c.text(100, not_blank=True)


class DivisionEdit(DivisionFields):
    """D4 body. parentDivisionId 0 moves the division to the top level."""

    parentDivisionId: c.int_range(0, c.INT64_MAX) = OMIT


class Division(ResponseModel):
    divisionId: int
    parentDivisionId: int | None = None
    childDivisionIds: list[int] | None = None
    divisionCode: str | None = None
    divisionName: str | None = None
    divisionNameKana: str | None = None
    divisionNameAlphabet: str | None = None
    divisionPhoneNum: str | None = None
    divisionUrl: str | None = None
    sortScore: int | None = None


class DivisionQuery(QueryModel):
    """D1 query parameters."""

    page: PageNumber = 0
    pageSize: PageSize100 = 30
    divisionIds: Annotated[list[QueryInt64], MaxLen(50)] = OMIT
    divisionCodes: Annotated[list[DivisionCode], MaxLen(50), exists_in_variant("divisionCodes")] = OMIT
    divisionName: c.text(100) = OMIT
    firstLayer: Annotated[bool, exists_in_variant("firstLayer")] = False
