"""What of each record is searchable and which of its numbers are dialable.

One table of kinds drives upsert, search terms and the phone index, so users and
contacts are indexed by the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from corpdir.cache.folding import fold, parts
from corpdir.phone import digits
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS, USER_PHONE_FIELDS

NAME_FIELDS = ("fullname", "fullnameKana", "fullnameAlphabet")


PART = "part:"  # prefix of a field name whose term is one part of a name (B-tree only)


def _names(data: dict[str, Any]) -> Iterable[tuple[str, str]]:
    for field in NAME_FIELDS:
        value = data.get(field)
        if value:
            yield field, fold(value)
            for part in parts(value):
                yield PART + field, part


def _plain(data: dict[str, Any], fields: Iterable[str]) -> Iterable[tuple[str, str]]:
    for field in fields:
        value = data.get(field)
        if value:
            yield field, fold(value)


def _phone_digits(data: dict[str, Any], fields: Iterable[str]) -> Iterable[tuple[str, str]]:
    for field in fields:
        value = data.get(field)
        if value and (d := digits(value)):
            yield field, d


def user_terms(data: dict[str, Any]) -> Iterable[tuple[str, str]]:
    yield from _names(data)
    yield from _plain(data, ("employeeNum", "email1", "email2", "position", "post"))
    for div in data.get("divisions") or ():
        if div.get("divisionName"):
            yield "divisions", fold(div["divisionName"])
    yield from _phone_digits(data, USER_PHONE_FIELDS)


def contact_terms(data: dict[str, Any]) -> Iterable[tuple[str, str]]:
    yield from _names(data)
    yield from _plain(data, ("companyName", "companyNameKana", "divisionName", "divisionNameKana", "email1", "email2", "position"))
    yield from _phone_digits(data, CONTACT_PHONE_FIELDS)


@dataclass(frozen=True)
class Kind:
    name: str
    terms: Callable[[dict[str, Any]], Iterable[tuple[str, str]]]
    phone_fields: tuple[str, ...]


USER = Kind("user", user_terms, USER_PHONE_FIELDS)
CONTACT = Kind("contact", contact_terms, CONTACT_PHONE_FIELDS)
KINDS = {k.name: k for k in (USER, CONTACT)}
