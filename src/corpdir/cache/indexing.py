"""What of each record is searchable and which of its numbers are dialable.

One table of kinds drives upsert, search terms and the phone index, so users and
contacts are indexed by the same code.

A record's search terms are kept with it as one string (``terms``): one line per folded
term, its first character naming the field and whether the substring index (FTS5
trigram) holds it. Everything else is derived from that string, so what was indexed can
always be taken out again exactly, whatever the record or its divisions say later:
- the B-tree rows (exact and prefix matches, any length) are all the lines;
- the trigram document (substrings of 3+ characters) is the lines marked for it: name
  *parts* ('タナカ', 'タロウ') rather than the whole name, so 'tanaka' cannot match across
  the parts of 'Shota Nakajima'; the whole name stays in the B-tree for '山田太郎' typed
  without its space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from corpdir.cache.fields import CODES
from corpdir.cache.folding import fold, fold_common, parts
from corpdir.phone import digits
from corpdir.spec.phone_fields import CONTACT_PHONE_FIELDS, USER_PHONE_FIELDS

NAME_FIELDS = ("fullname", "fullnameKana", "fullnameAlphabet")

_MARK = 0x21  # a line's first character: chr(_MARK + 2 * code + (1 if B-tree only))
LINE = "\n"  # folding takes every space out of a term, so no term holds one

Term = tuple[str, str, bool]  # (field, folded term, in the trigram document)
DivisionPaths = Mapping[int, Sequence[str]]  # division id -> names from the top down to it


def _names(data: dict[str, Any]) -> Iterable[Term]:
    for field in NAME_FIELDS:
        value = data.get(field)
        if value:
            pieces = parts(value)
            yield field, fold(value), not pieces  # the whole name: in the trigram document only when it has no parts
            for piece in pieces:
                yield field, piece, True


def _plain(data: dict[str, Any], fields: Iterable[str]) -> Iterable[Term]:
    for field in fields:
        value = data.get(field)
        if value:
            yield field, fold_common(value), True


def _phone_digits(data: dict[str, Any], fields: Iterable[str]) -> Iterable[Term]:
    for field in fields:
        value = data.get(field)
        if value and (d := digits(value)):
            yield field, d, True


def user_terms(data: dict[str, Any], paths: DivisionPaths) -> Iterable[Term]:
    """A user's terms; a division's name finds its people and the people of every
    division under it, so each of the user's divisions adds the names on its path."""
    yield from _names(data)
    yield from _plain(data, ("employeeNum", "email1", "email2", "position", "post"))
    for div in data.get("divisions") or ():
        path = paths.get(div.get("divisionId")) or ([div["divisionName"]] if div.get("divisionName") else [])
        for name in path:
            yield "divisions", fold_common(name), True
    yield from _phone_digits(data, USER_PHONE_FIELDS)


def contact_terms(data: dict[str, Any], paths: DivisionPaths) -> Iterable[Term]:
    yield from _names(data)
    yield from _plain(data, ("companyName", "companyNameKana", "divisionName", "divisionNameKana", "email1", "email2", "position"))
    yield from _phone_digits(data, CONTACT_PHONE_FIELDS)


def index_lines(terms: Iterable[Term]) -> list[tuple[str, int, bool]]:
    """(term, field code, in the trigram document) of each distinct term: its first field
    names it; it goes to the trigram document if any of its fields does. What
    :func:`decode_terms` gives back from :func:`encode_lines`' string."""
    first: dict[str, list[Any]] = {}
    for field, term, fts in terms:
        if not term:
            continue
        seen = first.get(term)
        if seen is None:
            first[term] = [term, CODES[field], fts]
        elif fts:
            seen[2] = True
    return [tuple(line) for line in first.values()]  # type: ignore[misc]


def encode_lines(lines: Iterable[tuple[str, int, bool]]) -> str:
    """The record's ``terms`` string of :func:`index_lines`' lines."""
    return LINE.join(chr(_MARK + 2 * code + (0 if fts else 1)) + term for term, code, fts in lines)


def encode_terms(terms: Iterable[Term]) -> str:
    """The record's ``terms`` string: each term once (see :func:`index_lines`)."""
    return encode_lines(index_lines(terms))


def decode_terms(encoded: str) -> list[tuple[str, int, bool]]:
    """(term, field code, in the trigram document) of each line of a ``terms`` string."""
    out = []
    for line in encoded.split(LINE) if encoded else ():
        mark = ord(line[0]) - _MARK
        out.append((line[1:], mark >> 1, not mark & 1))
    return out


def document(encoded: str) -> str:
    """The trigram document of a ``terms`` string (lines apart: no substring spans two)."""
    return lines_document(decode_terms(encoded))


def lines_document(lines: Iterable[tuple[str, int, bool]]) -> str:
    return LINE.join(term for term, _, fts in lines if fts)


def phone_keys(data: dict[str, Any], fields: Iterable[str], key: Callable[[str], str]) -> list[tuple[str, int]]:
    """(match key, field code) of each number the record has."""
    out = []
    for field in fields:
        value = data.get(field)
        if value and (k := key(value)):
            out.append((k, CODES[field]))
    return out


@dataclass(frozen=True)
class Kind:
    name: str
    table: str
    id_field: str
    terms: Callable[[dict[str, Any], DivisionPaths], Iterable[Term]]
    phone_fields: tuple[str, ...]


USER = Kind("user", "users", "userId", user_terms, USER_PHONE_FIELDS)
CONTACT = Kind("contact", "contacts", "contactId", contact_terms, CONTACT_PHONE_FIELDS)
KINDS = {k.name: k for k in (USER, CONTACT)}
