"""What each form of the TUI shows: labels in reading order, read-only fields, the
validation context. The fields, widgets and rules come from the spec's models."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from corpdir.spec import ErrorDetail
from corpdir.spec.contact import BusinessCardForm
from corpdir.spec.enums import UserType
from corpdir.spec.usertype import not_settable_fields
from corpdir.spec.variants import get_variant
from corpdir.tui.forms.choices import Picker
from corpdir.tui.forms.form_spec import FormSpec
from corpdir.tui.forms.writes import IMAGE_SUFFIXES
from corpdir.tui.labels import CONTACT_FIELDS, USER_FIELDS, value_label

USER_ORDER = [
    "loginId", "fullname", "fullnameKana", "fullnameAlphabet", "userType", "employeeNum", "position",
    "positionAlphabet", "post", "divisionIds", "extensionNum", "phoneNum", "companyMobileNum", "mobileNum",
    "personalMobileNum", "faxNum", "email1", "email2", "webUrl", "comment", "skill", "remarks", "sortScore", "level",
    "enabled", "password", "initialPasswordForceChange", "roles", "paapiAvailable", "forceRequestOperator",
    "forceLocalAuthentication", "deviceId", "deviceIdAcceptInitialize", "pbxPartition", "pbxAccount",
    "pbxFeatureAvailable", "tenantAlphaAdapterSettingsId", "tenantCucmAdapterSettingsId", "ctiPort",
    "incomingPopupIosApns", "groupware", "m365Account", "gwsAccount", "iosPasyncLabel", "spCallSettings",
    "chatSettingList", "gotalkAvailable", "gotalkLogDownloadAvailable", "thanksAvailable", "anpiLoginId",
    "mobileMacAddress", "pcMacAddress", "bleId",
]
USER_LABELS = {**USER_FIELDS, "fullname": "Name", "divisionIds": "Divisions", "password": "Password",
               "chatSettingList": "Chat accounts", "tenantCucmAdapterSettingsId": "Call-manager adapter ID",
               "tenantAlphaAdapterSettingsId": "PBX adapter ID"}


def _user_type(values: dict[str, Any], stored: str | None) -> str:
    return values.get("userType") or stored or UserType.REGULAR_USER.value


def user_form(user: Any | None, variant: str = "C") -> FormSpec:
    """U2 (``user`` None) or U4. Fields the user's type may not set are disabled; fields
    the service's interface variant lacks are not shown."""
    stored = getattr(user, "userType", None)
    absent = get_variant(variant).absent_user_fields()
    return FormSpec(
        title=f"Edit {user.fullname}" if user is not None else "New user",
        code="U4" if user is not None else "U2",
        labels={k: USER_LABELS.get(k, k) for k in USER_ORDER if k not in absent},
        readonly=frozenset({"loginId"}) if user is not None else frozenset(),
        initial={"userType": UserType.REGULAR_USER.value} if user is None else {},
        hints={"password": "leave empty to keep it"} if user is not None else {},  # a new user has none to keep
        pickers={"divisionIds": Picker("division", multiple=True)},
        context=lambda values: {"user_type": _user_type(values, stored)},
        restricted=lambda values: not_settable_fields(_user_type(values, stored)),
        restricted_note=lambda values: f"Greyed fields cannot be set for this type ({value_label('userType', _user_type(values, stored))}).",
    )


PROFILE_LABELS = {
    "oneWord": "One word", "jobDescription": "Job description", "skills": "Skills", "toolTechnologies": "Tools",
    "qualifications": "Qualifications", "briefHistories": "History", "achievementHistories": "Achievements",
    "externalLinks": "Links", "customColumns": "Custom columns",
}


def profile_form(name: str) -> FormSpec:
    return FormSpec(title=f"Profile of {name}", code="U10", labels=PROFILE_LABELS,
                    hints={"briefHistories": "one a line: YYYY-MM-DD | text",
                           "achievementHistories": "one a line: YYYY-MM-DD | text",
                           "externalLinks": "one a line: URL | title", "customColumns": "one a line: column ID | value"})


DIVISION_LABELS = {
    "divisionName": "Name", "divisionCode": "Code", "divisionNameKana": "Kana", "divisionNameAlphabet": "Alphabet",
    "divisionPhoneNum": "Phone", "divisionUrl": "Web", "sortScore": "Sort score", "parentDivisionId": "Parent division",
}


def division_form(division: Any | None, parent_id: int | None = None, *, path: str = "") -> FormSpec:
    """D2 under ``parent_id`` (None: top level), or D4 of ``division`` (named by its
    ``path`` when given; parent 0 moves it to the top level)."""
    return FormSpec(
        title=f"Edit division {path or division.divisionName}" if division is not None else "New division",
        code="D4" if division is not None else "D2",
        labels=DIVISION_LABELS,
        initial={"parentDivisionId": parent_id} if division is None and parent_id else {},
        # the top level is parent 0 on an edit (D4), no parent on a create (D2); a division
        # cannot move under itself, so its own subtree is not offered
        pickers={"parentDivisionId": Picker("division", none=("(top level)", 0 if division is not None else None),
                                            not_under=division.divisionId if division is not None else None)},
    )


CONTACT_ORDER = [
    "folderId", "fullname", "fullnameKana", "fullnameAlphabet", "companyName", "companyNameKana", "divisionName",
    "divisionNameKana", "position", "phoneNum", "companyMobileNum", "mobileNum", "personalMobileNum", "faxNum",
    "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "email1", "email2", "webUrl", "companyUrl",
    "divisionUrl", "headquartersLocation", "officeLocation", "comment", "remarks",
]
CONTACT_LABELS = {**CONTACT_FIELDS, "fullname": "Name"}


def contact_form(contact: Any | None, folder: tuple[str, int] | None = None) -> FormSpec:
    """X2 in ``folder`` (directory, folderNum), or X3 (the folder cannot change)."""
    initial: dict[str, Any] = {}
    if contact is None and folder is not None:
        initial["folderId"] = {"directory": folder[0], "folderNum": folder[1]}
    return FormSpec(
        title=f"Edit contact {contact.fullname}" if contact is not None else "New contact",
        code="X3" if contact is not None else "X2",
        labels={k: CONTACT_LABELS.get(k, k) for k in CONTACT_ORDER},
        readonly=frozenset({"folderId"}) if contact is not None else frozenset(),
        initial=initial,
        pickers={"folderId": Picker("folder")},
    )


def personal_folder_form(folder: Any | None) -> FormSpec:
    return FormSpec(title=f"Edit folder {folder.folderName}" if folder is not None else "New personal folder",
                    code="P3" if folder is not None else "P2",
                    labels={"folderName": "Folder name", "sortScore": "Sort score"})


def _now() -> str:
    return datetime.now().astimezone().replace(microsecond=0).isoformat()


def call_form(direction: str, record: Any | None) -> FormSpec:
    """H2/H3 (incoming) or H5/H6 (outgoing)."""
    if direction == "incoming":
        labels = {"fromNum": "From number", "calledAt": "Called at", "answered": "Answered", "duration": "Duration (s)",
                  "note": "Note", "voicemail": "Voicemail"}
        code, at = ("H3", "calledAt") if record is not None else ("H2", "calledAt")
    else:
        labels = {"toNum": "To number", "callingAt": "Called at", "answered": "Answered", "duration": "Duration (s)",
                  "note": "Note"}
        code, at = ("H6", "callingAt") if record is not None else ("H5", "callingAt")
    return FormSpec(
        title=("Edit " if record is not None else "New ") + f"{direction} call",
        code=code, labels=labels,
        initial={at: _now(), "answered": True} if record is None else {},
    )


def _card_file(values: dict[str, Any]) -> list[ErrorDetail]:
    path = (values.get("file") or "").strip()
    if not path:
        return [ErrorDetail(field="file", code="REQUIRED", description="choose the card image (a JPEG, PNG ... file)")]
    if not Path(path).expanduser().is_file():
        return [ErrorDetail(field="file", code="REQUIRED", description="no such file")]
    return []


def business_card_form(folder: tuple[str, int] | None) -> FormSpec:
    """X5: a card image and where the contact goes; the service reads the card."""
    initial: dict[str, Any] = {"readerType": "AUTO", "ocrLanguage": "JAPANESE", "autoCrop": False, "divideImage": False}
    if folder is not None:
        initial.update(directory=folder[0], folderNum=folder[1])
    return FormSpec(
        title="New contact from a business card", code="X5", model=BusinessCardForm,
        labels={"file": "Card image file", "folder": "Folder", "autoCrop": "Auto crop", "divideImage": "Several cards",
                "readerType": "Reader", "ocrLanguage": "Language", "comment": "Comment", "remarks": "Remarks"},
        pickers={"folder": Picker("folder", spread=("directory", "folderNum"))},
        extra_fields={"file": "Card image file"}, extra_check=_card_file, initial=initial,
        browse_suffixes=IMAGE_SUFFIXES,
        hints={"file": "path to the image (Ctrl+O to browse)"},
    )
