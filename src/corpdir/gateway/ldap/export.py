"""`corpdir export --format ldif`: the cached phonebook as LDIF, for slapadd or ldapadd.

Streamed: entries are read from the cache a batch at a time and each record written as it
is made, so a 190k-entry phonebook needs no more memory than a few thousand entries
(docs/performance.md, "Exports"). The file starts with the base entry (when its RDN says
what it is: ou=, o=, dc=), so ``ldapadd`` into a new base works.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from corpdir.gateway.ldap.entries import attributes, base_entry, line_attributes, line_rdn, rdn
from corpdir.gateway.ldap.ldif import HEADER, record
from corpdir.service.export import finish, open_private
from corpdir.service.identify import SHARED_FIELDS
from corpdir.service.phonebook import Phonebook
from corpdir.text import printable

_FILTERS = ("search", "division", "sub", "userType", "employeeNum", "phoneNum", "email", "loginId", "directory",
            "folder", "fullname", "companyName", "source")


async def write_ldif(phonebook: Phonebook, base_dn: str, kinds: tuple[str, ...], stream: TextIO) -> int:
    """The LDIF of ``kinds`` (users, contacts; both also get the shared lines) to
    ``stream``, record by record; how many entries were written."""
    stream.write(HEADER)
    count = 0
    base = base_entry(base_dn)
    if base is not None:
        stream.write(record(base_dn, base))
        count += 1
    region = phonebook.region
    shared: list[str] = []  # the contacts' company and division numbers: one entry per line, after them
    async for batch in phonebook.entry_batches(kinds):
        stream.write("".join(record(f"{rdn(e)},{base_dn}", attributes(e, region)) for e in batch if e.id is not None))
        count += sum(1 for e in batch if e.id is not None)
        shared += (n for e in batch for f, n in e.numbers if f in SHARED_FIELDS)
    if len(kinds) > 1:
        lines = await phonebook.shared_lines(shared)
        stream.write("".join(record(f"{line_rdn(line)},{base_dn}", line_attributes(line, region)) for line in lines))
        count += len(lines)
    return count


async def run_ldif(service: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    given = [name for name in _FILTERS if getattr(args, name, None) not in (None, False, [])]
    if given:
        print(f"--format ldif exports the whole cached phonebook: {', '.join(given)} cannot narrow it; nothing was exported",
              file=err)
        return 2
    kinds = {"users": ("user",), "contacts": ("contact",)}.get(args.kind or "", ("user", "contact"))
    if base_entry(args.base_dn) is None:
        print(printable(f"{args.base_dn}: not an ou=, o= or dc= name: its entry is left out (it must exist already)"),
              file=err)
    phonebook = Phonebook(service, one_pass=True)
    try:
        if not args.output:
            await write_ldif(phonebook, args.base_dn, kinds, out)
            return 0
        path = Path(args.output).expanduser()
        try:
            stream, part = open_private(path)
            ok = False
            try:
                count = await write_ldif(phonebook, args.base_dn, kinds, stream)
                ok = True
            finally:
                finish(stream, part, path, ok=ok)
        except OSError as exc:
            print(printable(f"cannot write {args.output}: {exc.strerror or exc}: nothing was exported"), file=err)
            return 2
    finally:
        phonebook.close()
    print(printable(f"{count} entries written to {args.output} (LDIF, from the cache)"), file=err)
    return 0
