"""What each field is called on screen, in the order a receptionist reads a record."""

from __future__ import annotations

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

PHONE_PRIORITY = ("extensionNum", "phoneNum", "companyMobileNum", "mobileNum", "personalMobileNum",
                  "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "faxNum")


def first_phone(record: object) -> str:
    """The number a receptionist dials first: the extension, else the first phone there is."""
    for field in PHONE_PRIORITY:
        value = getattr(record, field, None)
        if value:
            return value
    return ""
