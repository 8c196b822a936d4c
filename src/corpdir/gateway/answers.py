"""A caller-ID answer in the forms PBXs read: plain text, ``key=value&...``, JSON.

Each renders the one answer (:class:`corpdir.service.identify.Identity`) and nothing
else: the caller is who it names (a company's or a division's number names the company
or the division, by its path), so `/cid`, `/cid.kv`, `/cid.json` and every other surface
agree. Every text from the directory goes through :func:`corpdir.text.printable` first: a
name with a newline, a control or a bidi character must not reach a phone display or
split a ``key=value`` answer. With ``ascii`` the answer holds only ASCII
(:mod:`corpdir.gateway.ascii`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import quote

from corpdir.gateway.ascii import ascii_name, romanise
from corpdir.phone import digits
from corpdir.service.phonebook import MOBILE_FIELDS, PHONE_LABELS
from corpdir.text import printable

if TYPE_CHECKING:
    from corpdir.gateway.lookup import Lookup
    from corpdir.service.identify import Identity
    from corpdir.service.phonebook import Entry

ASCII_PATH_SEPARATOR = " > "


def _split(name: str) -> tuple[str, str]:
    """(family, given) of a name written family first ('佐藤 健一')."""
    family, _, given = name.replace("\u3000", " ").strip().partition(" ")
    return family, given.strip()


def ascii_division(name: str, alphabet: str) -> str:
    """One division's name in ASCII: its alphabet spelling when that is ASCII, else romanised."""
    return alphabet if alphabet and alphabet.isascii() else romanise(name)


class Shown:
    """The names of a phonebook entry or a caller-ID answer as a phone shows them
    (neutralised; ASCII if asked): both have a name, kana, alphabet name, company and
    division path."""

    def __init__(self, entry: Entry | Identity, ascii: bool) -> None:
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


def caller(answer: Identity, shown: Shown) -> str:
    """Who is calling, as a phone display says it (:attr:`Identity.who`, in the answer's script)."""
    if answer.kind == "division":
        return shown.division or shown.name
    if answer.kind == "company":
        return " ".join(x for x in (shown.company, shown.division) if x) or shown.name
    return shown.name


def entity_id(answer: Identity) -> str:
    """The answer's id: a record's ('user:12', 'division:5'), or for a company's or
    division's shared line 'company:' and its digits, so a CRM (3CX matches on ``id``)
    files the line as one entity, never as one of the hundreds of contacts who share it."""
    return answer.ref or (f"company:{digits(answer.number or answer.stored)}" if answer.kind == "company" else "")


def fields(answer: Identity, ascii: bool, record_url: str) -> dict[str, Any]:
    """The JSON fields of an answer. A shared line (a company's, a division's) has no
    first or last name of its own: ``lastName`` holds the caller name (the company and
    division, the division's path), which is what a CRM that builds its display name from
    first and last name then shows, and no person's name ever is."""
    shown = Shown(answer, ascii)
    record = answer.record or {}
    named = answer.kind in ("person", "contact")
    number = printable(answer.stored)
    email = next((e for e in (record.get("email1"), record.get("email2")) if e), "") if named else ""
    url = {"division": record.get("divisionUrl"), "contact": record.get("webUrl"),  # as the phonebook links records
           "person": record.get("contactDetailsUrl") or record.get("webUrl")}.get(answer.kind)
    who = caller(answer, shown)
    return {
        "name": shown.name, "callerName": who, "lastName": shown.family if named else who,
        "firstName": shown.given if named else "", "company": shown.company, "division": shown.division,
        "type": answer.kind, "id": entity_id(answer), "phoneType": PHONE_LABELS.get(answer.field, ""),
        "phoneBusiness": number if answer.field and answer.field not in MOBILE_FIELDS else "",
        "phoneMobile": number if answer.field in MOBILE_FIELDS else "",
        "email": printable(email), "url": (printable(url or "") if named or answer.kind == "division" else "") or record_url,
        "holders": answer.count, "firstHolders": [printable(n) for n in answer.first], "source": answer.source,
    }


def text(answer: Lookup, ascii: bool = False) -> str:
    """The whole body is the name ('' for nobody): no newline, which FreeSWITCH would keep."""
    return caller(answer.identity, Shown(answer.identity, ascii)) if answer.found else ""


def key_values(answer: Lookup, ascii: bool = False) -> str:
    """``name=...&company=...&division=...&type=...&id=...`` for Asterisk's
    ``CURLOPT(hashcompat)``: values percent-encoded (``%20``, never ``+``, which
    hashcompat=yes keeps as a plus). ``company`` is the company (a person's is empty, as in
    the JSON answer); the division path is ``division``."""
    if not answer.found:
        return ""
    identity = answer.identity
    shown = Shown(identity, ascii)
    pairs = {"name": caller(identity, shown), "company": shown.company, "division": shown.division,
             "type": identity.kind, "id": identity.ref}
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs.items())


def as_json(answer: Lookup, ascii: bool, record_url: Callable[[Identity], str]) -> str:
    """The answer's fields at the top (what a 3CX template maps), and in ``matches``."""
    matches = [fields(answer.identity, ascii, record_url(answer.identity))] if answer.found else []
    body: dict[str, Any] = {"query": printable(answer.query), "found": answer.found, "late": answer.late,
                            "withheld": answer.identity.kind == "withheld"}
    if matches:
        body.update(matches[0])
    body["matches"] = matches
    return json.dumps(body, ensure_ascii=ascii)
