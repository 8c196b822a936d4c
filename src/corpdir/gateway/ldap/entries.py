"""A phonebook entry as an inetOrgPerson.

Flat under one base DN, named by a stable id (``uid=user-12``, ``uid=contact-34``), so a
rename or a move to another division is a modify, never a delete and add. What a phone
reads: ``displayName`` (shown), ``telephoneNumber`` (extension, office, company and
division numbers), ``mobile``, ``mail``; ``cn`` also holds the kana reading and the
alphabet name and ``sn`` the family name in kanji and kana, so a phone's search filter
(Yealink: ``(|(cn=%)(sn=%))``) finds 佐藤 by サトウ or Sato. ``ou`` is the division path,
``o`` a contact's company. Numbers are as the directory stores them and in E.164: slapd's
telephoneNumberMatch ignores spaces and hyphens, so ``(telephoneNumber=0312345678)``
finds '03-1234-5678', and ``(telephoneNumber=+81312345678)`` finds the E.164 value.

A division's own number and a company's or division's number written on contacts get
one entry each (``uid=division-N``, ``uid=company-NUMBER``), named as every caller-ID
answer names them (:mod:`corpdir.service.identify`), rather than turning up on every
contact that carries them.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Iterable

from corpdir.phone import DEFAULT_REGION, e164
from corpdir.service.identify import SHARED_FIELDS, Identity
from corpdir.service.phonebook import MOBILE_FIELDS, Entry
from corpdir.text import printable

if TYPE_CHECKING:
    from corpdir.service.phonebook import Phonebook

OBJECT_CLASSES = ["top", "person", "organizationalPerson", "inetOrgPerson"]
MANAGED = ("cn", "sn", "givenName", "displayName", "telephoneNumber", "mobile", "facsimileTelephoneNumber", "mail",
           "ou", "o", "title", "employeeNumber", "labeledURI")
_NOT_PRINTABLE_STRING = re.compile(r"[^A-Za-z0-9 '()+,\-./:?]")  # telephoneNumber is a PrintableString


def rdn(entry: Entry) -> str:
    return f"uid={entry.kind}-{entry.id}"


def line_rdn(line: Identity) -> str:
    """A division's line by the division's id; a company's line by its number (it has no record)."""
    return f"uid=division-{line.id}" if line.kind == "division" else f"uid=company-{line.number.lstrip('+')}"


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


def _phones(numbers: Iterable[str], region: str) -> list[str]:
    """Each number as stored and in E.164: a phone that received '+81312345678' finds it too."""
    out, seen = [], set()
    for value in _unique(_NOT_PRINTABLE_STRING.sub("", form) for n in numbers for form in (n, e164(n, region) or n)):
        key = value.replace(" ", "").replace("-", "")  # slapd's telephoneNumberMatch ignores both
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def attributes(entry: Entry, region: str) -> dict[str, list[str]]:
    """The managed attributes of ``entry`` (absent: none), objectClass and uid included.
    A company's or division's number written on a contact is not the contact's: it is
    the line's own entry (:func:`line_attributes`), as caller-ID names it."""
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
        "telephoneNumber": _phones((n for f, n in entry.numbers if f not in MOBILE_FIELDS and f != "faxNum"
                                    and f not in SHARED_FIELDS), region),
        "mobile": _phones((n for f, n in entry.numbers if f in MOBILE_FIELDS), region),
        "facsimileTelephoneNumber": _phones([by_field["faxNum"]] if "faxNum" in by_field else [], region),
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


def line_attributes(line: Identity, region: str) -> dict[str, list[str]]:
    """A shared line's entry: named as caller-ID names it (the division by its path, the
    company and its division), with its number."""
    attrs = {
        "objectClass": OBJECT_CLASSES,
        "uid": [line_rdn(line)[4:]],
        "cn": _unique([line.who, line.name, line.kana]),
        "sn": _unique([line.who]),
        "displayName": _unique([line.who]),
        "telephoneNumber": _phones([line.stored], region),
        "ou": _unique([line.division_path]),
        "o": _unique([line.company]),
    }
    return {k: v for k, v in attrs.items() if v}


def entries(phonebook: Iterable[Entry], base_dn: str, lines: Iterable[Identity] = (),
            region: str = DEFAULT_REGION) -> dict[str, dict[str, list[str]]]:
    """DN -> attributes for every entry with an id, and every shared line."""
    found = {f"{rdn(e)},{base_dn}": attributes(e, region) for e in phonebook if e.id is not None}
    found.update((f"{line_rdn(line)},{base_dn}", line_attributes(line, region)) for line in lines)
    return found


async def directory(phonebook: Phonebook, base_dn: str) -> dict[str, dict[str, list[str]]]:
    """Everything the LDAP tree holds for the cached phonebook: DN -> attributes."""
    return entries(await phonebook.entries(), base_dn, await phonebook.shared_lines(), phonebook.region)
