"""LDIF (RFC 2849) of the phonebook, written by ldap3 (base64 for non-ASCII values, line folding)."""

from __future__ import annotations

from typing import Iterator

from ldap3.protocol.rfc2849 import operation_to_ldif


def ldif(entries: dict[str, dict[str, list[str]]]) -> Iterator[str]:
    """``version: 1`` then one content record per entry (DN -> attributes, from
    :func:`corpdir.gateway.ldap.entries.directory`), blank-line separated (the first right
    after the version line: slapadd reads a blank line there as an empty record)."""
    separator = "version: 1\n"
    for dn, attrs in entries.items():
        raw = {name: [v.encode("utf-8") for v in values] for name, values in attrs.items()}
        lines = operation_to_ldif("searchResponse", [{"type": "searchResEntry", "dn": dn, "raw_attributes": raw}])
        yield separator + "\n".join(line for line in lines if line and not line.startswith("#")) + "\n"
        separator = "\n"
