"""Phone-number identification (N1, spec 2.9)."""

from __future__ import annotations

from corpdir.spec import constraints as c
from corpdir.spec.common import RequestModel, ResponseModel

N1_MAX_NUMBERS = 5


class IdentifyRequest(RequestModel):
    phoneNums: c.items(c.Phone1, N1_MAX_NUMBERS, min_items=1)


class IdentificationItem(ResponseModel):
    phoneNum: str | None = None
    displayName: str | None = None
    companyName: str | None = None
    divisionNames: list[str] | None = None
    phoneNumContactType: str | None = None  # SHARED_NUMBER (spec); USER, CONTACT (reference server)
    userId: int | None = None
    contactId: int | None = None


class IdentifyResult(ResponseModel):
    items: list[IdentificationItem]
