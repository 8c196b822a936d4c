"""The calling user's incoming and outgoing call histories (spec 2.10, H1-H6)."""

from __future__ import annotations

from datetime import datetime

from corpdir.spec import constraints as c
from corpdir.spec.common import OMIT, PageNumber, QueryModel, RequestModel, ResponseModel, q_int
from corpdir.spec.enums import OrderDirection

CALLS_MAX_PAGE_SIZE = 20


class Voicemail(RequestModel):
    urlBrowser: c.text(256) = OMIT
    urlIos: c.text(256) = OMIT
    urlAndroid: c.text(256) = OMIT


class IncomingCallEdit(RequestModel):
    """H3 body. fromNum is PHONE_CHARS, zero characters allowed: spec 2.10 asks for one or
    more only "when used in create", so an edit may clear the number (withheld)."""

    fromNum: c.Phone = OMIT
    answered: c.StrictBool = OMIT
    duration: c.Seconds = OMIT
    calledAt: c.DateTime = OMIT
    voicemail: Voicemail = OMIT
    note: c.text(50) = OMIT


class IncomingCallCreate(IncomingCallEdit):
    """H2 body: answered and calledAt required; fromNum, when sent, one or more PHONE_CHARS."""

    fromNum: c.Phone1 = OMIT
    answered: c.StrictBool
    calledAt: c.DateTime


class OutgoingCallEdit(RequestModel):
    """H6 body."""

    toNum: c.Phone1 = OMIT
    answered: c.StrictBool = OMIT
    duration: c.Seconds = OMIT
    callingAt: c.DateTime = OMIT
    note: c.text(50) = OMIT


class OutgoingCallCreate(OutgoingCallEdit):
    """H5 body: toNum, answered and callingAt required."""

    toNum: c.Phone1
    answered: c.StrictBool
    callingAt: c.DateTime


class NumContact(ResponseModel):
    displayName: str | None = None
    companyName: str | None = None
    divisionNames: list[str] | None = None
    phoneNumContactType: str | None = None
    userId: int | None = None
    contactId: int | None = None


class VoicemailOut(ResponseModel):
    urlBrowser: str | None = None
    urlIos: str | None = None
    urlAndroid: str | None = None


class IncomingCall(ResponseModel):
    incomingCallHistoryId: int
    fromNum: str | None = None
    fromNumContact: NumContact | None = None
    answered: bool | None = None
    duration: int | None = None
    voicemail: VoicemailOut | None = None
    note: str | None = None
    calledAt: datetime | None = None


class OutgoingCall(ResponseModel):
    outgoingCallHistoryId: int
    toNum: str | None = None
    toNumContact: NumContact | None = None
    answered: bool | None = None
    duration: int | None = None
    note: str | None = None
    callingAt: datetime | None = None


class CallQuery(QueryModel):
    """H1/H4 query: pageSize 1..20 (default 20), ordered by call time."""

    page: PageNumber = 0
    pageSize: q_int(1, CALLS_MAX_PAGE_SIZE) = CALLS_MAX_PAGE_SIZE
    orderDirection: OrderDirection = OrderDirection.ASC
    answered: bool = OMIT
