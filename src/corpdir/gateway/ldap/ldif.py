"""LDIF (RFC 2849) of the phonebook, one record at a time.

Written here rather than by ldap3's writer (one operation dict, encoder pass and comment
filter per record): a record is a few lines of text, and the export writes 190k. The rules are RFC 2849's: a value that is not a
SAFE-STRING (non-ASCII, a line break or NUL, a first space, colon or '<', a last space)
is written base64 (``name:: ...``), so nothing in a name can start a line of its own;
lines longer than 76 characters are folded (a continuation starts with one space).
"""

from __future__ import annotations

import re
from base64 import b64encode

_SAFE = re.compile(r"[\x01-\x09\x0b\x0c\x0e-\x1f\x21-\x39\x3b\x3d-\x7f][\x01-\x09\x0b\x0c\x0e-\x7f]*(?<! )")
WIDTH = 76
HEADER = "version: 1\n"  # the first record follows at once: slapadd reads a blank line there as an empty record


def _fold(text: str) -> str:
    return "\n ".join([text[:WIDTH], *(text[i:i + WIDTH - 1] for i in range(WIDTH, len(text), WIDTH - 1))])


def record(dn: str, attrs: dict[str, list[str]]) -> str:
    """One content record: ``name: value`` lines (base64 where RFC 2849 asks for it,
    folded at 76 characters), then the blank line that ends it. One loop, no call per
    value: a 190k-entry export writes 5 million of them."""
    lines: list[str] = []
    append, safe = lines.append, _SAFE.fullmatch
    for name, values in (("dn", [dn]), *attrs.items()):
        for value in values:
            text = f"{name}: {value}" if safe(value) else f"{name}:: {b64encode(value.encode('utf-8')).decode('ascii')}"
            append(text if len(text) <= WIDTH else _fold(text))
    append("\n")
    return "\n".join(lines)
