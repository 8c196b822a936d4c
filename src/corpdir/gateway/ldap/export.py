"""`corpdir export --format ldif`: the cached phonebook as LDIF, for slapadd or ldapadd."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from corpdir.gateway.ldap.entries import directory
from corpdir.gateway.ldap.ldif import ldif
from corpdir.service.export import finish, open_private
from corpdir.service.phonebook import Phonebook
from corpdir.text import printable

_FILTERS = ("search", "division", "sub", "userType", "employeeNum", "phoneNum", "email", "loginId", "directory",
            "folder", "fullname", "companyName", "source")


async def run_ldif(service: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    given = [name for name in _FILTERS if getattr(args, name, None) not in (None, False, [])]
    if given:
        print(f"--format ldif exports the whole cached phonebook: {', '.join(given)} cannot narrow it; nothing was exported",
              file=err)
        return 2
    phonebook = Phonebook(service)
    try:
        entries = await directory(phonebook, args.base_dn)
    finally:
        phonebook.close()
    kind = {"users": "user", "contacts": "contact"}.get(args.kind or "")
    if kind is not None:
        entries = {dn: attrs for dn, attrs in entries.items() if dn.startswith(f"uid={kind}-")}
    if not args.output:
        out.writelines(ldif(entries))
        return 0
    path = Path(args.output).expanduser()
    try:
        stream, part = open_private(path)
        ok = False
        try:
            stream.writelines(ldif(entries))
            ok = True
        finally:
            finish(stream, part, path, ok=ok)
    except OSError as exc:
        print(printable(f"cannot write {args.output}: {exc.strerror or exc}: nothing was exported"), file=err)
        return 2
    print(printable(f"{len(entries)} entries written to {args.output} (LDIF, from the cache)"), file=err)
    return 0
