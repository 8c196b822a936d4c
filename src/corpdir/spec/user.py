"""The user resource (spec 2.4), the U1 query, and the U11 destinations body (2.11)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Mapping

from annotated_types import MaxLen
from pydantic import AfterValidator, ConfigDict, Strict, WithJsonSchema
from pydantic_core import PydanticCustomError

from corpdir.spec import constraints as c
from corpdir.spec import usertype
from corpdir.spec.errors import ErrorDetail
from corpdir.spec.common import OMIT, PageNumber, PageSize100, QueryInt64, QueryModel, RequestModel, ResponseModel
from corpdir.spec.enums import (ForceRequestOperator, Groupware, OrderDirection, PhotoSize, Role, SpCallSetting, UserOrderBy,
                                UserType)
from corpdir.spec.constraints import exists_in_variant, varies
from corpdir.spec.phone_fields import USER_PHONE_FIELDS  # noqa: F401 - part of this module's interface


def _not_editable(value: Any) -> Any:
    raise PydanticCustomError("NOT_EDITABLE", "is accepted on create only")


NotEditable = Annotated[Any, AfterValidator(_not_editable), WithJsonSchema({"not": {}})]
# Request values are M365 and GWS (NONE only appears in responses). Plain string literals,
# so an error lists 'M365' or 'GWS' rather than enum reprs.
GroupwareRequest = Annotated[Literal[Groupware.M365.value, Groupware.GWS.value], exists_in_variant("groupware")]
SpCallSettingItem = Annotated[SpCallSetting, varies("spCallSetting")]


class ChatSetting(RequestModel):
    """Request form of a collaboration setting (chatSettingList element)."""

    chatSettingSeq: c.Int32
    chatAccountId: c.text(256)


class UserFields(RequestModel):
    """The fields of spec 2.4 accepted on both create (C) and edit (E)."""

    model_config = ConfigDict(json_schema_extra=usertype.publish_rules)

    userType: UserType = OMIT
    enabled: c.StrictBool = OMIT
    forceLocalAuthentication: c.StrictBool = OMIT
    deviceId: c.text(8, c.DEVICE_ID) = OMIT
    deviceIdAcceptInitialize: c.StrictBool = OMIT
    password: c.text(50, not_blank=True) = OMIT
    initialPasswordForceChange: c.StrictBool = OMIT
    sortScore: c.SortScore = OMIT
    level: c.Level = OMIT
    fullname: c.NotBlank50 = OMIT
    fullnameKana: c.text(50) = OMIT
    fullnameAlphabet: c.text(50) = OMIT
    employeeNum: c.text(50) = OMIT
    position: c.text(100) = OMIT
    positionAlphabet: c.text(100) = OMIT
    post: c.text(50) = OMIT
    divisionIds: Annotated[list[c.Id], varies("divisionIds")] = OMIT
    comment: c.text(500) = OMIT
    remarks: c.text(500) = OMIT
    skill: c.text(500) = OMIT
    pbxPartition: c.text(50, c.PBX_PARTITION) = OMIT
    extensionNum: c.Phone = OMIT
    companyMobileNum: c.Phone = OMIT
    personalMobileNum: c.Phone = OMIT
    phoneNum: c.Phone = OMIT
    mobileNum: c.Phone = OMIT
    faxNum: c.Phone = OMIT
    email1: c.Email = OMIT
    email2: c.Email = OMIT
    webUrl: c.UrlOpt = OMIT
    chatSettingList: Annotated[list[ChatSetting], AfterValidator(c._unique), c.UNIQUE] = OMIT
    groupware: GroupwareRequest = OMIT
    m365Account: c.text(256, c.M365_ACCOUNT) = OMIT
    gwsAccount: Annotated[c.text(256, c.GWS_ACCOUNT), exists_in_variant("groupware")] = OMIT
    pbxAccount: c.text(256) = OMIT
    iosPasyncLabel: c.text(25) = OMIT
    spCallSettings: c.items(SpCallSettingItem, len(SpCallSetting), unique=True) = OMIT
    roles: c.items(Role, len(Role), unique=True) = OMIT
    paapiAvailable: c.StrictBool = OMIT
    forceRequestOperator: ForceRequestOperator = OMIT
    pbxFeatureAvailable: c.StrictBool = OMIT
    tenantCucmAdapterSettingsId: c.Int64 = OMIT
    ctiPort: c.text(15, c.CTI_PORT) = OMIT
    incomingPopupIosApns: c.StrictBool = OMIT
    tenantAlphaAdapterSettingsId: c.Int64 = OMIT
    gotalkAvailable: c.StrictBool = OMIT
    gotalkLogDownloadAvailable: c.StrictBool = OMIT
    anpiLoginId: Annotated[str, Strict(), varies("anpiLoginId")] = OMIT
    mobileMacAddress: c.MacAddress = OMIT
    pcMacAddress: c.MacAddress = OMIT
    bleId: Annotated[str, Strict(), varies("bleId")] = OMIT
    thanksAvailable: c.StrictBool = OMIT

    def rule_violations(self, context: Mapping[str, Any]) -> list[ErrorDetail]:
        """Spec 2.4's per-type table. The type is the one sent, else the stored user's
        (``context["user_type"]``), else REGULAR_USER (the create default)."""
        if "userType" in self.model_fields_set:
            user_type = self.userType
        else:
            user_type = context.get("user_type") or UserType.REGULAR_USER
        return usertype.violations(self.model_fields_set, user_type)


LoginId = Annotated[str, Strict(), MaxLen(50), varies("loginId")]


class UserCreate(UserFields):
    """U2 body. loginId and fullname are required; the server defaults level 5,
    initialPasswordForceChange false and forceRequestOperator DISABLE."""

    loginId: LoginId
    fullname: c.NotBlank50


class UserEdit(UserFields):
    """U4 body: partial; only the fields sent change. loginId cannot be edited."""

    loginId: NotEditable = OMIT


class DivisionRef(ResponseModel):
    divisionId: int
    divisionName: str | None = None


class Collaboration(ResponseModel):
    chatSettingSeq: int | None = None
    clientName: str | None = None
    chatAccountId: str | None = None


class CucmAdapterSettings(ResponseModel):
    tenantCucmAdapterSettingsId: int | None = None
    cucmAdapterName: str | None = None


class AlphaAdapterSettings(ResponseModel):
    tenantAlphaAdapterSettingsId: int | None = None
    alphaAdapterName: str | None = None


class User(ResponseModel):
    """A user as returned (U1/U2/U3/U4); only fields within the caller's range are present."""

    userId: int | None = None
    loginId: str | None = None
    userType: str | None = None
    enabled: bool | None = None
    forceLocalAuthentication: bool | None = None
    deviceId: str | None = None
    deviceIdAcceptInitialize: bool | None = None
    initialPasswordForceChange: bool | None = None
    sortScore: int | None = None
    level: int | None = None
    fullname: str | None = None
    fullnameKana: str | None = None
    fullnameAlphabet: str | None = None
    employeeNum: str | None = None
    position: str | None = None
    positionAlphabet: str | None = None
    post: str | None = None
    divisions: list[DivisionRef] | None = None
    comment: str | None = None
    remarks: str | None = None
    skill: str | None = None
    pbxPartition: str | None = None
    extensionNum: str | None = None
    companyMobileNum: str | None = None
    personalMobileNum: str | None = None
    phoneNum: str | None = None
    mobileNum: str | None = None
    faxNum: str | None = None
    email1: str | None = None
    email2: str | None = None
    webUrl: str | None = None
    collaborations: list[Collaboration] | None = None
    groupware: str | None = None
    m365Account: str | None = None
    gwsAccount: str | None = None
    pbxAccount: str | None = None
    iosPasyncLabel: str | None = None
    spCallSettings: list[str] | None = None
    roles: list[str] | None = None
    paapiAvailable: bool | None = None
    forceRequestOperator: str | None = None
    pbxFeatureAvailable: bool | None = None
    tenantCucmAdapterSettings: CucmAdapterSettings | None = None
    ctiPort: str | None = None
    incomingPopupIosApns: bool | None = None
    tenantAlphaAdapterSettings: AlphaAdapterSettings | None = None
    gotalkAvailable: bool | None = None
    gotalkLogDownloadAvailable: bool | None = None
    anpiLoginId: str | None = None
    mobileMacAddress: str | None = None
    pcMacAddress: str | None = None
    bleId: str | None = None
    thanksAvailable: bool | None = None
    contactDetailsUrl: str | None = None



UserSelectField = Literal[
    "userId", "loginId", "employeeNum", "divisions", "position", "positionAlphabet", "post", "fullname",
    "fullnameKana", "fullnameAlphabet", "extensionNum", "phoneNum", "companyMobileNum", "personalMobileNum",
    "mobileNum", "faxNum", "email1", "email2", "sortScore", "collaborations", "comment", "remarks", "skill",
    "initialPasswordForceChange", "userType", "roles", "paapiAvailable", "enabled", "forceRequestOperator",
    "gotalkAvailable", "gotalkLogDownloadAvailable", "forceLocalAuthentication", "pbxFeatureAvailable",
    "thanksAvailable", "pbxPartition", "webUrl", "level", "pcMacAddress", "mobileMacAddress", "bleId",
    "deviceIdAcceptInitialize", "deviceId", "groupware", "m365Account", "gwsAccount", "pbxAccount",
    "iosPasyncLabel", "ctiPort", "incomingPopupIosApns", "tenantCucmAdapterSettings", "tenantAlphaAdapterSettings",
    "anpiLoginId", "spCallSettings", "contactDetailsUrl",
]


class UserQuery(QueryModel):
    """U1 query parameters (spec 4.1)."""

    page: PageNumber = 0
    pageSize: PageSize100 = 30
    select: Annotated[list[Annotated[UserSelectField, varies("userSelect")]], AfterValidator(c._unique), c.UNIQUE] = OMIT
    orderBy: UserOrderBy = "fullname"
    orderDirection: OrderDirection = OrderDirection.ASC
    userType: Annotated[UserType, exists_in_variant("userTypeFilter")] = OMIT
    fullname: c.SearchText50 = OMIT
    fullnameKana: c.SearchText50 = OMIT
    divisionIds: Annotated[list[QueryInt64], MaxLen(50)] = OMIT
    includeSubDepartment: Annotated[bool, exists_in_variant("includeSubDepartment")] = False
    userIds: Annotated[list[QueryInt64], MaxLen(50)] = OMIT
    loginIds: Annotated[list[str], MaxLen(50), exists_in_variant("loginIds")] = OMIT
    employeeNum: c.text(50) = OMIT
    phoneNum: c.Phone = OMIT
    email1: c.Email = OMIT
    freeWords: c.items(c.SearchText50, 10) = OMIT


class PhotoQuery(QueryModel):
    """U6 query: which size of the face photo (default FULL)."""

    size: PhotoSize = PhotoSize.FULL


U11_MAX_DESTINATIONS = 10_000  # entries in one U11 request (spec section 4, U11)


class DestinationEntry(RequestModel):
    """One row of U11. Its loginId names a user, so it follows the user's loginId rule
    (one or more of the variant's loginId characters: no space, not empty)."""

    loginId: LoginId
    destinationId: c.Int64
    destinationName: c.text(256) = OMIT


class DestinationsEdit(RequestModel):
    """U11 body: at most U11_MAX_DESTINATIONS entries a request."""

    destinations: c.items(DestinationEntry, U11_MAX_DESTINATIONS)


class DestinationsResult(ResponseModel):
    destinationsCount: int
    registeredCount: int
