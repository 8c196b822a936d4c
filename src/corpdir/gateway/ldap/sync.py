"""Keep an LDAP tree in step with the cache by sending only what changed.

The entries under the base DN whose RDN is one of ours (``uid=user-N``, ``uid=contact-N``,
and the shared lines' ``uid=division-N``, ``uid=company-NUMBER``)
are read once; each one the cache no longer has is deleted, each new one added, and each
that differs gets one modify replacing (or deleting) just the attributes that differ.
Entries of other shapes under the base are left alone. ldap3 (pure Python) talks to the
server; the calls are blocking and run on a worker thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from corpdir.gateway.ldap.entries import MANAGED, base_entry

OURS = re.compile(r"^uid=(user|contact|division|company)-\d+,", re.IGNORECASE)


@dataclass
class SyncResult:
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0

    def summary(self) -> str:
        return (f"{len(self.added)} added, {len(self.modified)} modified, {len(self.deleted)} deleted, "
                f"{self.unchanged} unchanged")


class LdapError(Exception):
    """The directory server refused or could not be reached (the message says which)."""


def shown_url(url: str) -> str:
    """``url`` fit for a message: ``ldap://admin:pw@host`` -> ``ldap://[redacted]@host``."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc="[redacted]@" + parts.netloc.rsplit("@", 1)[1]))


def _connect(url: str, bind_dn: str | None, password: str | None) -> Any:
    import ldap3
    from ldap3.core.exceptions import LDAPException

    shown = shown_url(url)
    if shown != url:  # ldap3 takes no user or password from a URL; the message must not repeat them
        raise LdapError(f"{shown}: a user or password in the URL is not used: give --bind-dn, and the password"
                        " in --password-file or CORPDIR_LDAP_PASSWORD")
    try:
        server = ldap3.Server(url, get_info=ldap3.NONE, connect_timeout=10)
        return ldap3.Connection(server, user=bind_dn, password=password, auto_bind=True, raise_exceptions=True,
                                receive_timeout=60)
    except LDAPException as exc:
        raise LdapError(f"{url}: {exc.__class__.__name__}: {exc}") from None


def _ensure_base(conn: Any, base_dn: str) -> None:
    """Create the base entry when it is missing and its RDN says what it is (ou=, o=, dc=)."""
    import ldap3
    from ldap3.core.exceptions import LDAPNoSuchObjectResult

    try:
        conn.search(base_dn, "(objectClass=*)", search_scope=ldap3.BASE, attributes=[])
    except LDAPNoSuchObjectResult:
        attrs = base_entry(base_dn)
        if attrs is None:
            raise LdapError(f"{base_dn} does not exist (create it, or use a base DN starting with ou=)") from None
        conn.add(base_dn, attributes=attrs)


def _current(conn: Any, base_dn: str) -> dict[str, dict[str, list[str]]]:
    import ldap3

    found: dict[str, dict[str, list[str]]] = {}
    for item in conn.extend.standard.paged_search(base_dn, "(objectClass=inetOrgPerson)", search_scope=ldap3.LEVEL,
                                                  attributes=list(MANAGED), paged_size=500, generator=True):
        if item.get("type") != "searchResEntry" or not OURS.match(item["dn"]):
            continue
        raw = item["raw_attributes"]
        values = {k.lower(): [v.decode("utf-8") for v in vs] for k, vs in raw.items() if vs}
        found[_key(item["dn"])] = {"dn": [item["dn"]], **{name: values[name.lower()] for name in MANAGED if name.lower() in values}}
    return found


def _key(dn: str) -> str:
    return ",".join(part.strip() for part in dn.lower().split(","))


def apply(url: str, base_dn: str, bind_dn: str | None, password: str | None, wanted: dict[str, dict[str, list[str]]],
          *, dry_run: bool = False) -> SyncResult:
    """Make the tree under ``base_dn`` hold exactly ``wanted`` (of our entries)."""
    import ldap3
    from ldap3.core.exceptions import LDAPException

    result = SyncResult()
    conn = _connect(url, bind_dn, password)
    try:
        if not dry_run:
            _ensure_base(conn, base_dn)
        try:
            have = _current(conn, base_dn)
        except LDAPException:
            have = {}
        wanted_keys = {_key(dn): dn for dn in wanted}
        for key, attrs in have.items():
            if key not in wanted_keys:
                result.deleted.append(attrs["dn"][0])
                if not dry_run:
                    conn.delete(attrs["dn"][0])
        for key, dn in wanted_keys.items():
            attrs = wanted[dn]
            if key not in have:
                result.added.append(dn)
                if not dry_run:
                    conn.add(dn, attributes=attrs)
                continue
            current = have[key]
            changes = {}
            for name in MANAGED:
                new, old = attrs.get(name, []), current.get(name, [])
                if sorted(new) != sorted(old):
                    changes[name] = [(ldap3.MODIFY_REPLACE, new)] if new else [(ldap3.MODIFY_DELETE, [])]
            if changes:
                result.modified.append(dn)
                if not dry_run:
                    conn.modify(current["dn"][0], changes)
            else:
                result.unchanged += 1
    except LDAPException as exc:
        raise LdapError(f"{exc.__class__.__name__}: {exc}") from None
    finally:
        conn.unbind()
    return result
