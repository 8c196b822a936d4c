"""Yealink remote phonebooks.

``YealinkIPPhoneDirectory``: one ``DirectoryEntry`` per person with every number as a
``Telephone`` carrying its label (Ext, Office, Mobile ...). Yealink's remote phonebook
searches by calling the URL again with ``#SEARCH`` replaced by what was typed: ``?q=``.

``YealinkIPPhoneBook``: one ``Menu`` per division (by path; contacts by company), each
person a ``Unit`` with Yealink's three fixed slots: Phone1 is shown as Office (the
extension where there is one, else the office number), Phone2 as Mobile, Phone3 as Other
(the office number when Phone1 took the extension).
"""

from __future__ import annotations

from itertools import groupby
from typing import Iterable, Iterator

from corpdir.gateway.answers import Shown
from corpdir.gateway.names import NONE, Distinct
from corpdir.gateway.xml import PROLOG, attr, display_name, element
from corpdir.service.phonebook import MOBILE_FIELDS, Entry


def directory_head(title: str) -> str:
    return PROLOG + "<YealinkIPPhoneDirectory>\n" + element("Title", title) + "\n"


def directory_rows(entries: Iterable[Entry], ascii: bool, names: Distinct = NONE) -> Iterator[str]:
    for entry in entries:
        numbers = "".join(element("Telephone", n, label=label) for label, n in entry.dialable_numbers())
        yield f"<DirectoryEntry>{element('Name', display_name(entry, ascii, names))}{numbers}</DirectoryEntry>\n"


DIRECTORY_TAIL = "</YealinkIPPhoneDirectory>\n"


def _slots(entry: Entry) -> tuple[str, str, str]:
    by_field = dict(entry.numbers)
    office = by_field.get("extensionNum") or by_field.get("phoneNum") or by_field.get("companyDelegatedPhoneNum") or ""
    mobile = next((by_field[f] for f in ("companyMobileNum", "mobileNum", "personalMobileNum") if by_field.get(f)), "")
    used = {office, mobile}
    other = next((n for f, n in entry.numbers if f != "faxNum" and f not in MOBILE_FIELDS and n not in used), "")
    return office, mobile, other


def _group(entry: Entry, ascii: bool) -> str:
    shown = Shown(entry, ascii)
    return shown.company or shown.division or "-"


def phonebook(entries: Iterable[Entry], title: str, ascii: bool, names: Distinct = NONE) -> Iterator[str]:
    """Grouped by division path (contacts by company), groups in name order."""
    yield PROLOG + "<YealinkIPPhoneBook>\n" + element("Title", title) + "\n"
    keyed = sorted(((_group(e, ascii), i, e) for i, e in enumerate(entries)), key=lambda t: (t[0], t[1]))
    for group, members in groupby(keyed, key=lambda t: t[0]):
        yield f"<Menu Name={attr(group)}>\n"
        for _, _, entry in members:
            phone1, phone2, phone3 = _slots(entry)
            yield (f"<Unit Name={attr(display_name(entry, ascii, names))} Phone1={attr(phone1)} Phone2={attr(phone2)}"
                   f" Phone3={attr(phone3)} default_photo=\"Resource:\"/>\n")
        yield "</Menu>\n"
    yield "</YealinkIPPhoneBook>\n"

