"""XML for desk phones: one encoding (UTF-8, declared), escaped text, inert data.

Documents are assembled as strings (a whole directory of 200k entries would cost seconds
as an ElementTree); every value passes :func:`corpdir.text.printable` (no control
character, which XML 1.0 forbids, and no bidi trick) and then the standard library's XML
escaping (``<``, ``&``, ``>``, quotes), so ``]]>`` or markup in a name is text.
U+FFFE and U+FFFF, which ``printable`` lets through but XML 1.0 forbids (one such name
would make every phone's whole directory unreadable), become U+FFFD.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from corpdir.gateway.answers import Shown, ascii_division
from corpdir.service.phonebook import Entry
from corpdir.text import printable

PROLOG = '<?xml version="1.0" encoding="UTF-8"?>\n'
MEDIA_TYPE = "text/xml; charset=utf-8"


_NOT_XML = {0xFFFE: "\ufffd", 0xFFFF: "\ufffd"}


def _xml_chars(value: object) -> str:
    shown = printable(value)
    return shown.translate(_NOT_XML) if "\ufffe" in shown or "\uffff" in shown else shown


def text(value: object) -> str:
    return escape(_xml_chars(value))


def attr(value: object) -> str:
    return quoteattr(_xml_chars(value))


def element(tag: str, value: object, **attrs: object) -> str:
    extra = "".join(f" {k}={attr(v)}" for k, v in attrs.items())
    return f"<{tag}{extra}>{text(value)}</{tag}>"


def display_name(entry: Entry, ascii: bool) -> str:
    """The name and what tells two people of that name apart: the division (a user's own
    division, the last of its path) or the company (a contact's)."""
    shown = Shown(entry, ascii)
    where = shown.company or (entry.division[-1] if entry.division else "")
    if ascii and where and not entry.company:
        where = ascii_division(where, entry.division_alphabet[-1] if entry.division_alphabet else "")
    where = printable(where)
    return f"{shown.name} ({where})" if where else shown.name


def rows(entries: list[Entry], ascii: bool) -> list[tuple[str, str, str]]:
    """(display name, label, number) per dialable number, for phones whose entries hold one number."""
    out = []
    for entry in entries:
        name = display_name(entry, ascii)
        out.extend((name, label, number) for label, number in entry.dialable_numbers())
    return out
