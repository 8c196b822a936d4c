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

from corpdir.gateway.answers import ASCII_PATH_SEPARATOR, Shown, ascii_division
from corpdir.gateway.ascii import romanise
from corpdir.gateway.names import NONE, Distinct, where
from corpdir.division_path import division_path
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


def display_name(entry: Entry, ascii: bool, names: Distinct = NONE) -> str:
    """The name and what tells people of that name apart: the last division of a user's
    path or a contact's company, more of it where ``names`` says one is not enough
    (:mod:`corpdir.gateway.names`), and the first number where nothing else is."""
    shown = Shown(entry, ascii)
    depth, number = names.parts(entry)
    parts = where(entry)[-depth:]
    if entry.company:  # a contact: its company first, then its division
        text = " ".join([shown.company, *(romanise(p) if ascii else p for p in parts[:-1])])
    else:
        alphabet = entry.division_alphabet[-len(parts):] if entry.division_alphabet else ("",) * len(parts)
        text = (ASCII_PATH_SEPARATOR.join(ascii_division(p, a) for p, a in zip(parts, alphabet)) if ascii
                else division_path(parts))
    if number and entry.dialable_numbers():
        text = f"{text}, {entry.dialable_numbers()[0][1]}" if text else entry.dialable_numbers()[0][1]
    text = printable(text)
    return f"{shown.name} ({text})" if text else shown.name


def rows(entries: list[Entry], ascii: bool, names: Distinct = NONE) -> list[tuple[str, str, str]]:
    """(display name, label, number) per dialable number, for phones whose entries hold one number."""
    out = []
    for entry in entries:
        name = display_name(entry, ascii, names)
        out.extend((name, label, number) for label, number in entry.dialable_numbers())
    return out
