"""The current list (users or contacts) as CSV or vCard 4.0.

vCards are written with vobject (line folding and escaping done by the library): FN, N,
ORG, TITLE, one TEL per number (work/cell/fax), one EMAIL per address, URL, NOTE and a
UID naming the record. CSV has one column per field, divisions joined by "; ".
"""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable

USER_CSV = ("userId", "loginId", "fullname", "fullnameKana", "fullnameAlphabet", "employeeNum", "divisions", "position",
            "post", "extensionNum", "phoneNum", "companyMobileNum", "mobileNum", "personalMobileNum", "faxNum",
            "email1", "email2", "webUrl", "comment")
CONTACT_CSV = ("contactId", "directory", "folderNum", "fullname", "fullnameKana", "fullnameAlphabet", "companyName",
               "companyNameKana", "divisionName", "position", "phoneNum", "companyMobileNum", "mobileNum",
               "personalMobileNum", "faxNum", "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "email1", "email2",
               "webUrl", "companyUrl", "comment")
# phone field -> vCard TEL types
TEL_TYPES = {
    "extensionNum": ["work", "voice"], "phoneNum": ["work", "voice"], "companyMobileNum": ["work", "cell"],
    "mobileNum": ["cell"], "personalMobileNum": ["home", "cell"], "faxNum": ["work", "fax"],
    "companyDelegatedPhoneNum": ["work", "voice"], "divisionDelegatedPhoneNum": ["work", "voice"],
}
FORMATS = ("csv", "vcard")


def _cell(record: Any, name: str) -> str:
    if name == "divisions":
        return "; ".join(d.divisionName or str(d.divisionId) for d in getattr(record, "divisions", None) or [])
    if name in ("directory", "folderNum"):
        folder = getattr(record, "folderId", None)
        return "" if folder is None else str(getattr(folder, name))
    value = getattr(record, name, None)
    return "" if value is None else str(value)


def to_csv(kind: str, records: Iterable[Any]) -> str:
    columns = USER_CSV if kind == "users" else CONTACT_CSV
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([_cell(record, c) for c in columns])
    return out.getvalue()


def _card(kind: str, record: Any) -> Any:
    import vobject

    card = vobject.vCard()
    card.add("version").value = "4.0"
    fullname = record.fullname or ""
    card.add("fn").value = fullname
    family, _, given = fullname.replace("\u3000", " ").partition(" ")
    card.add("n").value = vobject.vcard.Name(family=family, given=given)
    kana = getattr(record, "fullnameKana", None)
    if kana:
        card.add("x-phonetic-name").value = kana
    if kind == "users":
        card.add("uid").value = f"urn:corpdir:user:{record.userId}"
        units = [d.divisionName for d in record.divisions or [] if d.divisionName]
        if units:
            card.add("org").value = units[:1]
    else:
        card.add("uid").value = f"urn:corpdir:contact:{record.contactId}"
        org = [v for v in (record.companyName, record.divisionName) if v]
        if org:
            card.add("org").value = org
    if getattr(record, "position", None):
        card.add("title").value = record.position
    for field, types in TEL_TYPES.items():
        number = getattr(record, field, None)
        if number:
            tel = card.add("tel")
            tel.value = number
            tel.params["TYPE"] = list(types)
            if field == "extensionNum":
                tel.params["X-CORPDIR"] = ["extension"]
    for field in ("email1", "email2"):
        address = getattr(record, field, None)
        if address:
            email = card.add("email")
            email.value = address
            email.params["TYPE"] = ["work"]
    if getattr(record, "webUrl", None):
        card.add("url").value = record.webUrl
    if getattr(record, "comment", None):
        card.add("note").value = record.comment
    return card


def to_vcard(kind: str, records: Iterable[Any]) -> str:
    return "".join(_card(kind, r).serialize() for r in records)


def export(kind: str, records: Iterable[Any], fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use csv or vcard")
    return to_csv(kind, records) if fmt == "csv" else to_vcard(kind, records)
