"""A caller-ID answer in the forms PBXs read: plain text, ``key=value&...``, JSON.

Every text from the directory goes through :func:`corpdir.text.printable` first: a name
with a newline, a control or a bidi character must not reach a phone display or split a
``key=value`` answer. With ``ascii`` the answer holds only ASCII (:mod:`corpdir.gateway.ascii`).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from corpdir.gateway.ascii import ascii_name, romanise
from corpdir.gateway.lookup import Lookup
from corpdir.service.phonebook import MOBILE_FIELDS, PHONE_LABELS, Entry
from corpdir.text import printable

ASCII_PATH_SEPARATOR = " > "


def _split(name: str) -> tuple[str, str]:
    """(family, given) of a name written family first ('佐藤 健一')."""
    family, _, given = name.replace("\u3000", " ").strip().partition(" ")
    return family, given.strip()


def ascii_division(name: str, alphabet: str) -> str:
    """One division's name in ASCII: its alphabet spelling when that is ASCII, else romanised."""
    return alphabet if alphabet and alphabet.isascii() else romanise(name)


class Shown:
    """The fields of one entry as an answer shows them (neutralised; ASCII if asked)."""

    def __init__(self, entry: Entry, ascii: bool) -> None:
        self.entry = entry
        if ascii:
            self.name = ascii_name(entry.alphabet, entry.kana, entry.name)
            family, given = _split(entry.kana or entry.name)
            self.family, self.given = romanise(family), romanise(given)
            self.company = romanise(entry.company_kana or entry.company) if entry.company else ""
            self.division = ASCII_PATH_SEPARATOR.join(
                ascii_division(name, alpha)
                for name, alpha in zip(entry.division, entry.division_alphabet or ("",) * len(entry.division)))
        else:
            self.name = entry.name
            self.family, self.given = _split(entry.name)
            self.company, self.division = entry.company, entry.division_path
        self.name, self.family, self.given, self.company, self.division = (
            printable(v) for v in (self.name, self.family, self.given, self.company, self.division))

    @property
    def caller(self) -> str:
        """Who is calling, as a phone display should say it: a company's or a division's
        main number is the company (and division), not the first of its many contacts."""
        matched = self.entry.matched
        if matched == "companyDelegatedPhoneNum" and self.company:
            return self.company
        if matched == "divisionDelegatedPhoneNum" and self.company:
            return f"{self.company} {self.division}".strip()
        if matched == "divisionPhoneNum":  # a division's own number: its path tells the 1課 apart
            return self.division or self.name
        return self.name

    def fields(self, record_url: str) -> dict[str, Any]:
        e = self.entry
        number = next((n for f, n in e.numbers if f == e.matched), "")
        return {
            "name": self.name, "callerName": self.caller, "lastName": self.family, "firstName": self.given, "company": self.company,
            "division": self.division, "type": e.kind, "id": e.ref, "phoneType": PHONE_LABELS.get(e.matched, ""),
            "phoneBusiness": printable(number) if e.matched and e.matched not in MOBILE_FIELDS else "",
            "phoneMobile": printable(number) if e.matched in MOBILE_FIELDS else "",
            "email": printable(e.emails[0]) if e.emails else "",
            "url": printable(e.url) or record_url, "source": e.source,
        }


def text(answer: Lookup, ascii: bool = False) -> str:
    """The whole body is the name ('' for nobody): no newline, which FreeSWITCH would keep."""
    return Shown(answer.entries[0], ascii).caller if answer.found else ""


def key_values(answer: Lookup, ascii: bool = False) -> str:
    """``name=...&company=...&division=...&type=...&id=...`` for Asterisk's
    ``CURLOPT(hashcompat)``: values percent-encoded (``%20``, never ``+``, which
    hashcompat=yes keeps as a plus)."""
    if not answer.found:
        return ""
    shown = Shown(answer.entries[0], ascii)
    pairs = {"name": shown.caller, "company": shown.company or shown.division, "division": shown.division,
             "type": answer.entries[0].kind, "id": answer.entries[0].ref}
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs.items())


def as_json(answer: Lookup, ascii: bool, record_url: Any) -> str:
    """The first match's fields at the top (what a 3CX template maps), all in ``matches``."""
    matches = [Shown(e, ascii).fields(record_url(e)) for e in answer.entries]
    body: dict[str, Any] = {"query": printable(answer.query), "found": answer.found, "late": answer.late}
    if matches:
        body.update(matches[0])
    body["matches"] = matches
    return json.dumps(body, ensure_ascii=ascii)
