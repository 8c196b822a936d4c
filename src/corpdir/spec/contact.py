"""The external contact resource (spec 2.7), the X1 query and the X5 form."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from annotated_types import MaxLen
from pydantic import AfterValidator

from corpdir.spec import constraints as c
from corpdir.spec.common import OMIT, QueryInt64, QueryModel, RequestModel, ResponseModel, q_int
from corpdir.spec.enums import Directory, OcrLanguage, OcrResult, OcrStatus, OcrType, OrderDirection, ReaderType
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS  # noqa: F401 - part of this module's interface
from corpdir.spec.user import DivisionRef, NotEditable


class FolderId(RequestModel):
    directory: Directory
    folderNum: c.Id


class Address(RequestModel):
    """headquartersLocation / officeLocation (lengths not given by the spec; 256 each here)."""

    zipCode: c.text(256) = OMIT
    address1: c.text(256) = OMIT
    address2: c.text(256) = OMIT


class ContactFields(RequestModel):
    companyName: c.text(200) = OMIT
    companyNameKana: c.text(200) = OMIT
    companyDelegatedPhoneNum: c.Phone = OMIT
    companyUrl: c.UrlHttp = OMIT
    headquartersLocation: Address = OMIT
    divisionName: c.text(50) = OMIT
    divisionNameKana: c.text(50) = OMIT
    divisionDelegatedPhoneNum: c.Phone = OMIT
    divisionUrl: c.UrlHttp = OMIT
    officeLocation: Address = OMIT
    position: c.text(100) = OMIT
    fullname: c.NotBlank50 = OMIT
    fullnameKana: c.text(50) = OMIT
    fullnameAlphabet: c.text(50) = OMIT
    phoneNum: c.Phone = OMIT
    companyMobileNum: c.Phone = OMIT
    personalMobileNum: c.Phone = OMIT
    mobileNum: c.Phone = OMIT
    faxNum: c.Phone = OMIT
    email1: c.Email = OMIT
    email2: c.Email = OMIT
    webUrl: c.UrlHttp = OMIT
    comment: c.text(500) = OMIT
    remarks: c.text(500) = OMIT


class ContactCreate(ContactFields):
    """X2 body: folderId and fullname required."""

    folderId: FolderId
    fullname: c.NotBlank50


class ContactEdit(ContactFields):
    """X3 body: partial; folderId cannot be changed."""

    folderId: NotEditable = OMIT


class FolderIdOut(ResponseModel):
    directory: str
    folderNum: int


class AddressOut(ResponseModel):
    zipCode: str | None = None
    address1: str | None = None
    address2: str | None = None


class RegisteredUser(ResponseModel):
    userId: int | None = None
    fullname: str | None = None
    loginId: str | None = None
    divisions: list[DivisionRef] | None = None


class Contact(ResponseModel):
    contactId: int | None = None
    folderId: FolderIdOut | None = None
    companyName: str | None = None
    companyNameKana: str | None = None
    companyDelegatedPhoneNum: str | None = None
    companyUrl: str | None = None
    headquartersLocation: AddressOut | None = None
    divisionName: str | None = None
    divisionNameKana: str | None = None
    divisionDelegatedPhoneNum: str | None = None
    divisionUrl: str | None = None
    officeLocation: AddressOut | None = None
    position: str | None = None
    fullname: str | None = None
    fullnameKana: str | None = None
    fullnameAlphabet: str | None = None
    phoneNum: str | None = None
    companyMobileNum: str | None = None
    personalMobileNum: str | None = None
    mobileNum: str | None = None
    faxNum: str | None = None
    email1: str | None = None
    email2: str | None = None
    webUrl: str | None = None
    comment: str | None = None
    remarks: str | None = None
    ocrStatus: str | None = None
    ocrType: str | None = None
    ocrResult: str | None = None
    contactDetailsUrl: str | None = None
    registeredUser: RegisteredUser | None = None
    registeredAt: datetime | None = None
    updatedAt: datetime | None = None



ContactSelectField = Literal[
    "contactId", "folderId", "companyName", "companyNameKana", "companyDelegatedPhoneNum", "companyUrl",
    "headquartersLocation", "divisionName", "divisionNameKana", "divisionDelegatedPhoneNum", "divisionUrl",
    "officeLocation", "position", "fullname", "fullnameKana", "fullnameAlphabet", "phoneNum", "companyMobileNum",
    "personalMobileNum", "mobileNum", "faxNum", "email1", "email2", "webUrl", "comment", "remarks", "ocrStatus",
    "ocrType", "ocrResult", "contactDetailsUrl", "registeredUser", "registeredAt", "updatedAt",
]

X1_MAX_PAGE = 19
X1_MAX_PAGE_SIZE = 500


class ContactQuery(QueryModel):
    """X1 query parameters: pages 0..19 only, pageSize up to 500."""

    page: q_int(0, X1_MAX_PAGE) = 0
    pageSize: q_int(1, X1_MAX_PAGE_SIZE) = 30
    select: Annotated[list[ContactSelectField], AfterValidator(c._unique), c.UNIQUE] = OMIT
    orderBy: Literal["updatedAt", "fullname"] = "updatedAt"
    orderDirection: OrderDirection = OrderDirection.ASC
    updatedFrom: c.DateTime = OMIT
    updatedTo: c.DateTime = OMIT
    registeredUserId: QueryInt64 = OMIT
    fullname: c.SearchText50 = OMIT
    fullnameKana: c.SearchText50 = OMIT
    phoneNum: c.Phone = OMIT
    email: c.Email = OMIT
    companyName: c.SearchText200 = OMIT
    companyNameKana: c.SearchText200 = OMIT
    divisionName: c.SearchText50 = OMIT
    divisionNameKana: c.SearchText50 = OMIT
    freeWords: c.items(c.SearchText50, 10) = OMIT
    directory: Directory = OMIT
    folderNums: Annotated[list[QueryInt64], MaxLen(10)] = OMIT
    ocrStatus: OcrStatus = OMIT
    ocrType: OcrType = OMIT
    ocrResult: OcrResult = OMIT
    identified: bool = False


class BusinessCardForm(QueryModel):
    """X5 form fields other than the file part ``businessCardImage`` (required, JPEG)."""

    directory: Directory
    folderNum: q_int(1, c.INT64_MAX)
    autoCrop: bool = False
    divideImage: bool = False
    readerType: ReaderType = ReaderType.AUTO
    ocrLanguage: OcrLanguage = OcrLanguage.JAPANESE
    comment: c.text(500) = OMIT
    remarks: c.text(500) = OMIT


class BusinessCardCreated(ResponseModel):
    contactId: int


BUSINESS_CARD_FILE_FIELD = "businessCardImage"
BUSINESS_CARD_RECOMMENDED_MAX = 6 * 1024 * 1024
