"""Every field and query parameter named in spec sections 2 and 4 exists in the models.

The expected names are copied from the spec's tables (not derived from the models), so a
field dropped or misspelt in corpdir.spec fails here.
"""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from corpdir.spec import calls, contact, division, folder, identify, location, profile, user
from corpdir.spec.operations import OPERATIONS


def names(*groups: str) -> set[str]:
    return {n for g in groups for n in g.replace(",", " ").split()}


# 2.4: the request columns (C, E) of the user table, in the spec's order
USER_REQUEST = names("""
userType enabled forceLocalAuthentication deviceId deviceIdAcceptInitialize loginId password
initialPasswordForceChange sortScore level fullname fullnameKana fullnameAlphabet employeeNum position
positionAlphabet post divisionIds comment remarks skill pbxPartition extensionNum companyMobileNum
personalMobileNum phoneNum mobileNum faxNum email1 email2 webUrl chatSettingList groupware m365Account
gwsAccount pbxAccount iosPasyncLabel spCallSettings roles paapiAvailable forceRequestOperator
pbxFeatureAvailable tenantCucmAdapterSettingsId ctiPort incomingPopupIosApns tenantAlphaAdapterSettingsId
gotalkAvailable gotalkLogDownloadAvailable anpiLoginId mobileMacAddress pcMacAddress bleId thanksAvailable
""")
USER_RESPONSE_ONLY = names("userId divisions collaborations tenantCucmAdapterSettings tenantAlphaAdapterSettings contactDetailsUrl")
USER_NOT_RETURNED = names("password divisionIds chatSettingList tenantCucmAdapterSettingsId tenantAlphaAdapterSettingsId")
USER_RESPONSE = (USER_REQUEST - USER_NOT_RETURNED) | USER_RESPONSE_ONLY

DIVISION_REQUEST = names("parentDivisionId divisionCode divisionName divisionNameKana divisionNameAlphabet divisionPhoneNum divisionUrl sortScore")
DIVISION_RESPONSE = DIVISION_REQUEST | names("divisionId childDivisionIds")

PROFILE_REQUEST = names("oneWord jobDescription skills toolTechnologies qualifications briefHistories achievementHistories externalLinks customColumns")
PROFILE_RESPONSE = PROFILE_REQUEST | {"selfUpdatedAt"}

CONTACT_EDIT = names("""
companyName companyNameKana companyDelegatedPhoneNum companyUrl headquartersLocation divisionName divisionNameKana
divisionDelegatedPhoneNum divisionUrl officeLocation position fullname fullnameKana fullnameAlphabet phoneNum
companyMobileNum personalMobileNum mobileNum faxNum email1 email2 webUrl comment remarks
""")
CONTACT_RESPONSE = CONTACT_EDIT | names("contactId folderId ocrStatus ocrType ocrResult contactDetailsUrl registeredUser registeredAt updatedAt")

INCOMING = names("incomingCallHistoryId fromNum fromNumContact answered duration voicemail note calledAt")
OUTGOING = names("outgoingCallHistoryId toNum toNumContact answered duration note callingAt")
NUM_CONTACT = names("displayName companyName divisionNames phoneNumContactType userId contactId")

# (model, expected field names, exact: the model has no other fields)
MODELS: list[tuple[type[BaseModel], set[str], bool]] = [
    # 2.4
    (user.UserCreate, USER_REQUEST, True),
    (user.UserEdit, USER_REQUEST, True),  # loginId is there to answer NOT_EDITABLE
    (user.User, USER_RESPONSE, True),
    (user.ChatSetting, names("chatSettingSeq chatAccountId"), True),
    (user.DivisionRef, names("divisionId divisionName"), True),
    (user.Collaboration, names("chatSettingSeq clientName chatAccountId"), True),
    (user.CucmAdapterSettings, names("tenantCucmAdapterSettingsId cucmAdapterName"), True),
    (user.AlphaAdapterSettings, names("tenantAlphaAdapterSettingsId alphaAdapterName"), True),
    # 2.5
    (division.DivisionCreate, DIVISION_REQUEST, True),
    (division.DivisionEdit, DIVISION_REQUEST, True),
    (division.Division, DIVISION_RESPONSE, True),
    # 2.6
    (profile.ProfileEdit, PROFILE_REQUEST, True),
    (profile.Profile, PROFILE_RESPONSE, True),
    (profile.BriefHistory, names("briefHistoryDate briefHistoryText"), True),
    (profile.BriefHistoryOut, names("briefHistoryDate briefHistoryText"), True),
    (profile.AchievementHistory, names("achievementHistoryDate achievementHistoryText"), True),
    (profile.AchievementHistoryOut, names("achievementHistoryDate achievementHistoryText"), True),
    (profile.ExternalLink, names("externalLinkUrl externalLinkTitle"), True),
    (profile.ExternalLinkOut, names("externalLinkUrl externalLinkTitle"), True),
    (profile.CustomColumnValue, names("customColumnId customColumnValue"), True),
    (profile.CustomColumn, names("customColumnId customColumnValue customColumnTitle"), True),
    # 2.7
    (contact.ContactCreate, CONTACT_EDIT | {"folderId"}, True),
    (contact.ContactEdit, CONTACT_EDIT | {"folderId"}, True),  # folderId answers NOT_EDITABLE
    (contact.Contact, CONTACT_RESPONSE, True),
    (contact.FolderId, names("directory folderNum"), True),
    (contact.FolderIdOut, names("directory folderNum"), True),
    (contact.Address, names("zipCode address1 address2"), True),
    (contact.AddressOut, names("zipCode address1 address2"), True),
    (contact.RegisteredUser, names("userId fullname loginId divisions"), True),
    # 2.8
    (folder.Folder, names("folderId folderName"), True),
    (folder.PersonalFolder, names("folderNum folderName sortScore"), True),
    (folder.PersonalFolderCreate, names("folderName sortScore"), True),
    (folder.PersonalFolderEdit, names("folderName sortScore"), True),
    # 2.9
    (identify.IdentificationItem, names("phoneNum displayName companyName divisionNames phoneNumContactType userId contactId"), True),
    # 2.10
    (calls.IncomingCall, INCOMING, True),
    (calls.OutgoingCall, OUTGOING, True),
    (calls.NumContact, NUM_CONTACT, True),
    (calls.VoicemailOut, names("urlBrowser urlIos urlAndroid"), True),
    (calls.Voicemail, names("urlBrowser urlIos urlAndroid"), True),
    # 2.11
    (user.DestinationEntry, names("loginId destinationId destinationName"), True),
    (location.LocationEntry, names("bleId spotId"), True),
]


@pytest.mark.parametrize(("model", "expected", "exact"), MODELS, ids=[m.__qualname__ for m, _, _ in MODELS])
def test_resource_fields(model: type[BaseModel], expected: set[str], exact: bool) -> None:
    fields = set(model.model_fields)
    assert expected - fields == set(), f"missing in {model.__name__}"
    if exact:
        assert fields - expected == set(), f"not in the spec: {model.__name__}"


# Section 4: the body and query of every operation, by code.
OPERATION_INPUTS: dict[str, set[str]] = {
    "U1": names("""page pageSize select orderBy orderDirection userType fullname fullnameKana divisionIds
                   includeSubDepartment userIds loginIds employeeNum phoneNum email1 freeWords"""),
    "U2": USER_REQUEST,
    "U4": USER_REQUEST,
    "U6": {"size"},
    "U10": PROFILE_REQUEST,
    "U11": {"destinations"},
    "D1": names("page pageSize divisionIds divisionCodes divisionName firstLayer"),
    "D2": DIVISION_REQUEST,
    "D4": DIVISION_REQUEST,
    "X1": names("""page pageSize select orderBy orderDirection updatedFrom updatedTo registeredUserId fullname
                   fullnameKana phoneNum email companyName companyNameKana divisionName divisionNameKana freeWords
                   directory folderNums ocrStatus ocrType ocrResult identified"""),
    "X2": CONTACT_EDIT | {"folderId"},
    "X3": CONTACT_EDIT | {"folderId"},
    # businessCardImage is the file part (BUSINESS_CARD_FILE_FIELD), not a form field of the model
    "X5": names("directory folderNum autoCrop divideImage readerType ocrLanguage comment remarks"),
    "F1": names("page pageSize directory folderName editingPrivileges"),
    "P1": names("page pageSize folderName"),
    "P2": names("folderName sortScore"),
    "P3": names("folderName sortScore"),
    "N1": {"phoneNums"},
    "H1": names("page pageSize orderDirection answered"),
    "H2": names("fromNum answered duration calledAt voicemail note"),
    "H3": names("fromNum answered duration calledAt voicemail note"),
    "H4": names("page pageSize orderDirection answered"),
    "H5": names("toNum answered duration callingAt note"),
    "H6": names("toNum answered duration callingAt note"),
    "L1": {"locations"},
}


@pytest.mark.parametrize("code", sorted(OPERATION_INPUTS))
def test_operation_inputs(code: str) -> None:
    op = OPERATIONS[code]
    model = op.body or op.query
    assert model is not None
    assert set(model.model_fields) == OPERATION_INPUTS[code]


def test_operations_without_inputs() -> None:
    with_inputs = {code for code, op in OPERATIONS.items() if op.body is not None or op.query is not None}
    assert with_inputs == set(OPERATION_INPUTS)


def test_x5_file_part() -> None:
    assert contact.BUSINESS_CARD_FILE_FIELD == "businessCardImage"


# Section 4: the output objects that are not resources
@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (user.DestinationsResult, names("destinationsCount registeredCount")),
        (location.SpotsResult, names("locationsCount acceptedCount")),
        (contact.BusinessCardCreated, {"contactId"}),
        (identify.IdentifyResult, {"items"}),
    ],
)
def test_operation_outputs(model: type[BaseModel], expected: set[str]) -> None:
    assert set(model.model_fields) == expected


# Section 4.1 / 4.3: the allowed select values
U1_SELECT = names("""
userId loginId employeeNum divisions position positionAlphabet post fullname fullnameKana fullnameAlphabet
extensionNum phoneNum companyMobileNum personalMobileNum mobileNum faxNum email1 email2 sortScore collaborations
comment remarks skill initialPasswordForceChange userType roles paapiAvailable enabled forceRequestOperator
gotalkAvailable gotalkLogDownloadAvailable forceLocalAuthentication pbxFeatureAvailable thanksAvailable pbxPartition
webUrl level pcMacAddress mobileMacAddress bleId deviceIdAcceptInitialize deviceId groupware m365Account gwsAccount
pbxAccount iosPasyncLabel ctiPort incomingPopupIosApns tenantCucmAdapterSettings tenantAlphaAdapterSettings
anpiLoginId spCallSettings contactDetailsUrl
""")
X1_SELECT = names("""
contactId folderId companyName companyNameKana companyDelegatedPhoneNum companyUrl headquartersLocation divisionName
divisionNameKana divisionDelegatedPhoneNum divisionUrl officeLocation position fullname fullnameKana fullnameAlphabet
phoneNum companyMobileNum personalMobileNum mobileNum faxNum email1 email2 webUrl comment remarks ocrStatus ocrType
ocrResult contactDetailsUrl registeredUser registeredAt updatedAt
""")


@pytest.mark.parametrize(("code", "expected", "response"), [("U1", U1_SELECT, user.User), ("X1", X1_SELECT, contact.Contact)])
def test_select_values(code: str, expected: set[str], response: type[BaseModel]) -> None:
    from corpdir.spec import validate_query

    model = validate_query(code, {"select": sorted(expected)})
    assert set(model.select) == expected
    assert expected <= set(response.model_fields), "every selectable field is a response field"


def test_user_select_is_the_response_minus_nothing_selectable() -> None:
    """Every response field of a user can be selected (the spec lists them all)."""
    assert set(user.User.model_fields) == U1_SELECT


@pytest.mark.parametrize(
    ("code", "defaults"),
    [
        ("U1", {"page": 0, "pageSize": 30, "orderBy": "fullname", "orderDirection": "asc", "includeSubDepartment": False}),
        ("U6", {"size": "FULL"}),
        ("D1", {"page": 0, "pageSize": 30, "firstLayer": False}),
        ("X1", {"page": 0, "pageSize": 30, "orderBy": "updatedAt", "orderDirection": "asc", "identified": False}),
        ("X5", {"autoCrop": False, "divideImage": False, "readerType": "AUTO", "ocrLanguage": "JAPANESE"}),
        ("F1", {"page": 0, "pageSize": 30, "editingPrivileges": False}),
        ("H1", {"page": 0, "pageSize": 20, "orderDirection": "asc"}),
    ],
)
def test_query_defaults(code: str, defaults: dict[str, object]) -> None:
    """Spec section 4's defaults; a default is never sent (params() holds only what was given)."""
    from corpdir.spec import validate_query

    required = {"X5": {"directory": "SHARED", "folderNum": 1}}.get(code, {})
    model = validate_query(code, required)
    assert {k: getattr(model, k) for k in defaults} == defaults
    assert model.params() == required


# Section 2.3: every enumeration with its values, copied from the spec's table.
ENUMERATIONS = [
    ("UserType", "REGULAR_USER REGISTRATION_ONLY_USER FACILITY"),
    ("Role", """ADMIN_COMPANY ADMIN_DIVISION ADMIN_USER ADMIN_INTERNAL_CONTACT ADMIN_COMMON_CONTACT ADMIN_INFORMATION
                ADMIN_SIGMA_IMPORT ADMIN_ACTION_LOG ADMIN_CLOUD_ACTIVE_DIRECTORY ADMIN_ACTIVE_DIRECTORY ADMIN_CUCM
                ADMIN_DIAL_PICKUP ADMIN_CMX ADMIN_EX_BEACON ADMIN_NETDEV ADMIN_ANPI ADMIN_IBASHO ADMIN_THANKS ADMIN_GOTALK"""),
    ("SpCallSetting", "DIRECT_CALL " + " ".join(f"SETTING_{i}" for i in range(1, 11))),
    ("ForceRequestOperator", "DISABLE FORCE SELECT"),
    ("Groupware", "M365 GWS NONE"),  # NONE in responses only (test_groupware_fields refuses it in requests)
    ("Directory", "SHARED PERSONAL"),
    ("OcrStatus", "CAN_SEND SENDING"),
    ("OcrType", "NONE MACHINE OPERATOR"),
    ("OcrResult", "SUCCESS FAILURE"),
    ("PhotoSize", "FULL THUMBNAIL"),
    ("ReaderType", "AUTO OPERATOR"),
    ("OcrLanguage", "JAPANESE ENGLISH"),
    ("OrderDirection", "asc desc"),
]


@pytest.mark.parametrize(("name", "values"), ENUMERATIONS, ids=[n for n, _ in ENUMERATIONS])
def test_enumerations(name: str, values: str) -> None:
    from corpdir.spec import enums

    assert {m.value for m in getattr(enums, name)} == names(values)


def test_phone_num_contact_type_holds_the_spec_value() -> None:
    """Only SHARED_NUMBER is given by the spec (the full set is not shown)."""
    from corpdir.spec.enums import PhoneNumContactType

    assert "SHARED_NUMBER" in {m.value for m in PhoneNumContactType}
