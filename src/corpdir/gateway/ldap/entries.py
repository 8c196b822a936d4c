"""A phonebook entry as an inetOrgPerson.

Flat under one base DN, named by a stable id (``uid=user-12``, ``uid=contact-34``), so a
rename or a move to another division is a modify, never a delete and add. What a phone
reads: ``displayName`` (shown), ``telephoneNumber`` (extension, office numbers),
``mobile``, ``mail``; ``cn`` and ``sn`` hold the name in every form a phone's name search
may start it (:mod:`.names`: the reading in both kana scripts, the alphabet name family
name first), so Yealink's and Grandstream's ``(|(cn=%)(sn=%))`` finds 青木 by あおき, アオキ
or Aoki. ``ou`` is the division path, ``o`` a contact's company. Each number is there as
the directory writes it and in every form a phone may have received it (national,
``+81...``, ``81...``): slapd's telephoneNumberMatch ignores only spaces and hyphens.

A division's own number and a company's or division's number written on contacts get
one entry each (``uid=division-N``, ``uid=company-NUMBER``), named as every caller-ID
answer names them (:mod:`corpdir.service.identify`), rather than turning up on every
contact that carries them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable

from corpdir.phone import DEFAULT_REGION, cached_region_rules, e164
from corpdir.gateway.ldap.names import readings, searchable
from corpdir.service.identify import SHARED_FIELDS, Identity
from corpdir.service.phonebook import MOBILE_FIELDS, Entry
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS, USER_PHONE_FIELDS
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


@lru_cache(maxsize=4096)  # division paths, companies, titles and family names repeat across 190k entries
def _text(value: str) -> str:
    """``value`` inert (:func:`printable`; plain ASCII needs nothing), its spaces collapsed."""
    return " ".join((value if value.isascii() and value.isprintable() else printable(value)).split())


def _one(value: str) -> list[str]:
    """A single-valued attribute: [the value] or [] (absent)."""
    text = _text(value)
    return [text] if text else []


def _unique(values: Iterable[str]) -> list[str]:
    """Non-empty values, inert, without those slapd's caseIgnoreMatch would call duplicates."""
    out, seen = [], set()
    for value in values:
        value = _text(value)
        key = value.lower() if value.isascii() else unicodedata.normalize("NFKC", value).casefold()
        if value and key not in seen:
            seen.add(key)
            out.append(value)
    return out


# Each number is made into an entry once: past the lookups' cache, which would only fill
# with them (65,536 numbers, ~14 MiB of an export's memory).
_e164 = getattr(e164, "__wrapped__", e164)


def _received(number: str, region: str) -> list[str]:
    """The forms a phone may have received ``number`` in: national ('0312345678'), E.164
    ('+81312345678') and E.164 without its '+' ('81312345678', as some trunks send it).
    A number stored as '+81 3-1234-5678' is then found by its national form too."""
    international = _e164(number, region)
    if international is None:
        return []
    rules = cached_region_rules(region)
    if rules is not None and rules.trunk and international.startswith("+" + rules.country_code):
        return [rules.trunk + international[1 + len(rules.country_code):], international, international[1:]]
    return [international, international[1:]]


def _phones(numbers: Iterable[str], region: str) -> list[str]:
    """Each number as stored and in the forms a phone may have received it (:func:`_received`),
    as PrintableStrings (which nothing unsafe survives)."""
    out: list[str] = []
    seen: set[str] = set()
    for number in numbers:
        for value in (" ".join(_NOT_PRINTABLE_STRING.sub("", number).split()), *_received(number, region)):
            key = value.replace(" ", "").replace("-", "")  # slapd's telephoneNumberMatch ignores both
            if key and key not in seen:
                seen.add(key)
                out.append(value)
    return out


_ATTRIBUTE_OF = {f: "mobile" if f in MOBILE_FIELDS else "facsimileTelephoneNumber" if f == "faxNum" else "telephoneNumber"
                 for f in (*USER_PHONE_FIELDS, *CONTACT_PHONE_FIELDS) if f not in SHARED_FIELDS}


def attributes(entry: Entry, region: str) -> dict[str, list[str]]:
    """The managed attributes of ``entry`` (absent: none), objectClass and uid included.
    A company's or division's number written on a contact is not the contact's: it is
    the line's own entry (:func:`line_attributes`), as caller-ID names it."""
    cn, sn = searchable(entry.name, entry.kana, entry.alphabet)
    numbers: dict[str, list[str]] = {}
    for field, number in entry.numbers:
        if field in _ATTRIBUTE_OF:
            numbers.setdefault(_ATTRIBUTE_OF[field], []).append(number)
    attrs = {
        "objectClass": OBJECT_CLASSES,
        "uid": [f"{entry.kind}-{entry.id}"],
        "cn": _unique(cn),
        "sn": _unique(sn),
        "givenName": _one(" ".join(entry.name.split()[1:])),
        "displayName": _one(entry.name),
        **{name: _phones(found, region) for name, found in numbers.items()},
        "mail": [m for m in _unique(entry.emails) if m.isascii()],
        "ou": _one(entry.division_path),
        "o": _one(entry.company),
        "title": _one(entry.position),
        "employeeNumber": _one(entry.employee_num),
        "labeledURI": [u for u in _one(entry.url) if u.isascii() and " " not in u],
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
        "cn": _unique([line.who, line.name, *readings(line.kana or line.company_kana), line.alphabet]),
        "sn": _one(line.who),
        "displayName": _one(line.who),
        "telephoneNumber": _phones([line.stored], region),
        "ou": _one(line.division_path),
        "o": _one(line.company),
    }
    return {k: v for k, v in attrs.items() if v}


_RDN = re.compile(r"\s*([A-Za-z][\w-]*)\s*=\s*((?:\\.|[^,+\\])*)")
_BASE_CLASSES = {"ou": ["top", "organizationalUnit"], "o": ["top", "organization"],
                 "dc": ["top", "dcObject", "organization"]}


def base_entry(base_dn: str) -> dict[str, list[str]] | None:
    """The entry the phonebook goes under, made from its RDN (``ou=phonebook`` -> an
    organizationalUnit; ``o=`` an organization; ``dc=`` a dcObject organization), so the
    LDIF loads into a new base; None for an RDN of another kind (it must exist already)."""
    match = _RDN.match(base_dn)
    if match is None or match.group(1).lower() not in _BASE_CLASSES:
        return None
    name, value = match.group(1).lower(), re.sub(r"\\(.)", r"\1", match.group(2)).strip()
    attrs = {"objectClass": _BASE_CLASSES[name], name: [value]}
    if name == "dc":
        attrs["o"] = [value]
    return attrs


def entries(phonebook: Iterable[Entry], base_dn: str, lines: Iterable[Identity] = (),
            region: str = DEFAULT_REGION) -> dict[str, dict[str, list[str]]]:
    """DN -> attributes for every entry with an id, and every shared line."""
    found = {f"{rdn(e)},{base_dn}": attributes(e, region) for e in phonebook if e.id is not None}
    found.update((f"{line_rdn(line)},{base_dn}", line_attributes(line, region)) for line in lines)
    return found


async def directory(phonebook: Phonebook, base_dn: str) -> dict[str, dict[str, list[str]]]:
    """Everything the LDAP tree holds for the cached phonebook: DN -> attributes."""
    return entries(await phonebook.entries(), base_dn, await phonebook.shared_lines(), phonebook.region)
