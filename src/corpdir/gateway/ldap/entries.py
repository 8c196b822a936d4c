"""A phonebook entry as an inetOrgPerson.

Flat under one base DN, named by a stable id (``uid=user-12``, ``uid=contact-34``), so a
rename or a move to another division is a modify, never a delete and add. What a phone
reads: ``displayName`` (shown), ``telephoneNumber`` (extension, office, company and
division numbers), ``mobile``, ``mail``; ``cn`` also holds the kana reading and the
alphabet name and ``sn`` the family name in kanji and kana, so a phone's search filter
(Yealink: ``(|(cn=%)(sn=%))``) finds 佐藤 by サトウ or Sato. ``ou`` is the division path,
``o`` a contact's company. Numbers are as the directory stores them: slapd's
telephoneNumberMatch ignores spaces and hyphens, so ``(telephoneNumber=0312345678)``
finds '03-1234-5678'.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from corpdir.service.phonebook import MOBILE_FIELDS, Entry
from corpdir.text import printable

OBJECT_CLASSES = ["top", "person", "organizationalPerson", "inetOrgPerson"]
MANAGED = ("cn", "sn", "givenName", "displayName", "telephoneNumber", "mobile", "facsimileTelephoneNumber", "mail",
           "ou", "o", "title", "employeeNumber", "labeledURI")
_NOT_PRINTABLE_STRING = re.compile(r"[^A-Za-z0-9 '()+,\-./:?]")  # telephoneNumber is a PrintableString


def rdn(entry: Entry) -> str:
    return f"uid={entry.kind}-{entry.id}"


def _unique(values: Iterable[str]) -> list[str]:
    """Non-empty values, without those slapd's caseIgnoreMatch would call duplicates."""
    out, seen = [], set()
    for value in values:
        value = " ".join(printable(value).split())
        key = unicodedata.normalize("NFKC", value).casefold()
        if value and key not in seen:
            seen.add(key)
            out.append(value)
    return out


def _phones(numbers: Iterable[str]) -> list[str]:
    return _unique(_NOT_PRINTABLE_STRING.sub("", n) for n in numbers)


def attributes(entry: Entry) -> dict[str, list[str]]:
    """The managed attributes of ``entry`` (absent: none), objectClass and uid included."""
    family, _, given = entry.name.replace("\u3000", " ").strip().partition(" ")
    kana_family = entry.kana.replace("\u3000", " ").strip().partition(" ")[0]
    by_field = {f: n for f, n in entry.numbers}
    attrs = {
        "objectClass": OBJECT_CLASSES,
        "uid": [f"{entry.kind}-{entry.id}"],
        "cn": _unique([entry.name, entry.kana, entry.alphabet]),
        "sn": _unique([family or entry.name, kana_family]),
        "givenName": _unique([given.strip()]),
        "displayName": _unique([entry.name]),
        "telephoneNumber": _phones(n for f, n in entry.numbers if f not in MOBILE_FIELDS and f != "faxNum"),
        "mobile": _phones(n for f, n in entry.numbers if f in MOBILE_FIELDS),
        "facsimileTelephoneNumber": _phones([by_field["faxNum"]] if "faxNum" in by_field else []),
        "mail": [m for m in _unique(entry.emails) if m.isascii()],
        "ou": _unique([entry.division_path]),
        "o": _unique([entry.company]),
        "title": _unique([entry.position]),
        "employeeNumber": _unique([entry.employee_num]),
        "labeledURI": [u for u in _unique([entry.url]) if u.isascii() and " " not in u],
    }
    if not attrs["cn"]:
        attrs["cn"] = attrs["sn"] = [f"{entry.kind}-{entry.id}"]
    return {k: v for k, v in attrs.items() if v}


def entries(phonebook: Iterable[Entry], base_dn: str) -> dict[str, dict[str, list[str]]]:
    """DN -> attributes for every entry with an id."""
    return {f"{rdn(e)},{base_dn}": attributes(e) for e in phonebook if e.id is not None}
