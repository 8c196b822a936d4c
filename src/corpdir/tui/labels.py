"""What each field is called on screen, in the order a receptionist reads a record, and
what the spec's enumerations are called (the words of the UI, which has one language,
English: no screen has a language setting)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from corpdir.spec.phone_fields import PHONE_PRIORITY, first_phone  # noqa: F401 - where the screens look for them

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

USER_FIELDS: dict[str, str] = {
    "fullnameKana": "Kana",
    "fullnameAlphabet": "Alphabet",
    "position": "Position",
    "positionAlphabet": "Position (alphabet)",
    "post": "Post",
    "extensionNum": "Extension",
    "phoneNum": "Phone",
    "companyMobileNum": "Company mobile",
    "mobileNum": "Mobile",
    "personalMobileNum": "Personal mobile",
    "faxNum": "Fax",
    "email1": "E-mail",
    "email2": "E-mail 2",
    "webUrl": "Web",
    "employeeNum": "Employee no.",
    "loginId": "Login ID",
    "userType": "Type",
    "comment": "Comment",
    "skill": "Skill",
    "remarks": "Remarks",
    "sortScore": "Sort score",
    "level": "Level",
    "enabled": "Enabled",
    "roles": "Roles",
    "paapiAvailable": "API use",
    "forceRequestOperator": "Card operator input",
    "forceLocalAuthentication": "Local authentication only",
    "initialPasswordForceChange": "Must change password",
    "deviceId": "Device ID",
    "deviceIdAcceptInitialize": "Accept device ID",
    "pbxPartition": "PBX partition",
    "pbxAccount": "PBX account",
    "pbxFeatureAvailable": "PBX integration",
    "ctiPort": "CTI port",
    "incomingPopupIosApns": "Incoming notification",
    "tenantCucmAdapterSettings": "Call-manager adapter",
    "tenantAlphaAdapterSettings": "PBX adapter",
    "groupware": "Groupware",
    "m365Account": "M365 account",
    "gwsAccount": "GWS account",
    "iosPasyncLabel": "Sync label",
    "spCallSettings": "Smartphone calling",
    "gotalkAvailable": "Talk",
    "gotalkLogDownloadAvailable": "Talk log download",
    "thanksAvailable": "Thanks",
    "anpiLoginId": "Safety login ID",
    "mobileMacAddress": "Mobile MAC",
    "pcMacAddress": "PC MAC",
    "bleId": "Location tag",
    "contactDetailsUrl": "Details URL",
}

# Fields a detail pane leaves out: sortScore is the service's ordering key (100686771 says
# nothing to a reader; the list's order shows what it does).
PANE_HIDDEN = frozenset({"sortScore"})


def _same_origin(url: str, other: str) -> bool:
    a, b = urlsplit(url), urlsplit(other)
    return (a.scheme, a.netloc) == (b.scheme, b.netloc)


def shown_fields(labels: dict[str, str], record: object, service: DirectoryService) -> dict[str, str]:
    """The fields a pane shows of ``record``: not the internals of :data:`PANE_HIDDEN`, and
    no link that cannot open in a browser. ``contactDetailsUrl`` on the service's own
    origin is an API address, which answers 401 without the key; the embedded demo is
    reached in-process and listens on no port (docs/screens.md)."""
    api_url = None if service.is_demo else service.settings.base_url
    url = getattr(record, "contactDetailsUrl", None)
    dead = api_url is None or (isinstance(url, str) and _same_origin(url, api_url))
    return {k: v for k, v in labels.items() if k not in PANE_HIDDEN and not (k == "contactDetailsUrl" and dead)}


CONTACT_FIELDS: dict[str, str] = {
    "fullnameKana": "Kana",
    "fullnameAlphabet": "Alphabet",
    "companyName": "Company",
    "companyNameKana": "Company kana",
    "divisionName": "Division",
    "divisionNameKana": "Division kana",
    "position": "Position",
    "phoneNum": "Phone",
    "companyMobileNum": "Company mobile",
    "mobileNum": "Mobile",
    "personalMobileNum": "Personal mobile",
    "faxNum": "Fax",
    "companyDelegatedPhoneNum": "Company phone",
    "divisionDelegatedPhoneNum": "Division phone",
    "email1": "E-mail",
    "email2": "E-mail 2",
    "webUrl": "Web",
    "companyUrl": "Company web",
    "divisionUrl": "Division web",
    "headquartersLocation": "Headquarters",
    "officeLocation": "Office",
    "comment": "Comment",
    "remarks": "Remarks",
    "folderId": "Folder",
    "ocrStatus": "OCR status",
    "ocrType": "OCR type",
    "ocrResult": "OCR result",
    "registeredUser": "Registered by",
    "registeredAt": "Registered",
    "updatedAt": "Updated",
}


# The spec's enumerations (interface spec 2.3) as the screens word them. A value not here
# (one a newer service adds) is shown as it comes rather than hidden.
VALUE_LABELS: dict[str, dict[str, str]] = {
    "userType": {"REGULAR_USER": "Regular user", "REGISTRATION_ONLY_USER": "Registration only",
                 "FACILITY": "Facility or equipment"},
    "roles": {
        "ADMIN_COMPANY": "Company admin", "ADMIN_DIVISION": "Divisions admin", "ADMIN_USER": "Users admin",
        "ADMIN_INTERNAL_CONTACT": "Internal contacts admin", "ADMIN_COMMON_CONTACT": "Shared contacts admin",
        "ADMIN_INFORMATION": "Notices admin", "ADMIN_SIGMA_IMPORT": "Import admin", "ADMIN_ACTION_LOG": "Action log admin",
        "ADMIN_CLOUD_ACTIVE_DIRECTORY": "Cloud directory admin", "ADMIN_ACTIVE_DIRECTORY": "Active Directory admin",
        "ADMIN_CUCM": "Call-manager admin", "ADMIN_DIAL_PICKUP": "Dial pickup admin", "ADMIN_CMX": "CMX admin",
        "ADMIN_EX_BEACON": "Beacon admin", "ADMIN_NETDEV": "Network devices admin", "ADMIN_ANPI": "Safety check admin",
        "ADMIN_IBASHO": "Whereabouts admin", "ADMIN_THANKS": "Thanks admin", "ADMIN_GOTALK": "Talk admin",
    },
    "spCallSettings": {"DIRECT_CALL": "Direct call", **{f"SETTING_{n}": f"Setting {n}" for n in range(1, 11)}},
    "forceRequestOperator": {"DISABLE": "Off", "FORCE": "Always", "SELECT": "User chooses"},
    "groupware": {"M365": "Microsoft 365", "GWS": "Google Workspace", "NONE": "None"},
    "ocrStatus": {"CAN_SEND": "Not sent", "SENDING": "Being read"},
    "ocrType": {"NONE": "Not read", "MACHINE": "By machine", "OPERATOR": "By an operator"},
    "ocrResult": {"SUCCESS": "Read", "FAILURE": "Could not be read"},
    "readerType": {"AUTO": "Automatic", "OPERATOR": "By an operator"},
    "ocrLanguage": {"JAPANESE": "Japanese", "ENGLISH": "English"},
    "directory": {"SHARED": "Shared", "PERSONAL": "Personal"},
    # the spec names SHARED_NUMBER only; USER and CONTACT are what the reference service sends
    "phoneNumContactType": {"USER": "Person", "CONTACT": "External contact", "SHARED_NUMBER": "Shared number"},
}


def value_label(field: str, value: object) -> str:
    """``value`` of the enumeration ``field`` as the screens word it ('REGULAR_USER' ->
    'Regular user'); a list's items joined; a value no table knows, as it came."""
    if isinstance(value, (list, tuple)):
        return ", ".join(value_label(field, item) for item in value)
    raw = getattr(value, "value", value)  # an Enum member or its text
    return VALUE_LABELS.get(field, {}).get(str(raw), str(raw)) if raw is not None else ""
