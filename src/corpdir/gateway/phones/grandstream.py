"""Grandstream ``AddressBook`` (the phonebook XML GXP/GRP phones download): one
``Contact`` per person, family and given name apart, each number a ``Phone`` whose
``type`` one of the types Grandstream documents (Work, Home, Mobile, Fax, Other: Work, or
Mobile for mobiles), plus the company and department the phone shows.

``accountindex`` is 0-based in Grandstream's phonebook XML (0-5 are accounts 1-6): 0 dials
out through the first account, as a number typed on the keypad would.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from corpdir.gateway.answers import Shown
from corpdir.gateway.xml import PROLOG, element
from corpdir.service.phonebook import MOBILE_FIELDS, Entry


FIRST_ACCOUNT = 0
HEAD = PROLOG + "<AddressBook>\n"
TAIL = "</AddressBook>\n"


def contacts(entries: Iterable[Entry], ascii: bool) -> Iterator[str]:
    for entry in entries:
        shown = Shown(entry, ascii)
        phones = "".join(
            f"<Phone type=\"{'Mobile' if field in MOBILE_FIELDS else 'Work'}\">{element('phonenumber', number)}"
            f"{element('accountindex', FIRST_ACCOUNT)}</Phone>"
            for field, number in entry.numbers if field != "faxNum")
        yield (f"<Contact>{element('LastName', shown.family or shown.name)}{element('FirstName', shown.given)}"
               f"{element('Company', shown.company)}{element('Department', shown.division)}{phones}</Contact>\n")
