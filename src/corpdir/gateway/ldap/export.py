"""`corpdir export --format ldif`: the cached phonebook as LDIF, for slapadd or ldapadd.

Streamed: entries are read from the cache a batch at a time and each record written as it
is made, so a 190k-entry phonebook needs no more memory than a few thousand entries, and
on two cores (docs/performance.md, the LDIF row). The file starts with the base entry
(when its RDN says what it is: ou=, o=, dc=), so ``ldapadd`` into a new base works.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from corpdir.gateway.ldap.entries import attributes, base_entry, line_attributes, line_rdn, rdn
from corpdir.gateway.ldap.ldif import HEADER, record
from corpdir.service.export import finish, open_private
from corpdir.service.identify import SHARED_FIELDS
from corpdir.service.phonebook import Phonebook
from corpdir.text import printable

if TYPE_CHECKING:
    from corpdir.config import ServiceConfig

_FILTERS = ("search", "division", "sub", "userType", "employeeNum", "phoneNum", "email", "loginId", "directory",
            "folder", "fullname", "companyName", "source")


async def write_ldif(phonebook: Phonebook, base_dn: str, kinds: tuple[str, ...], stream: TextIO,
                     settings: ServiceConfig | None = None) -> int:
    """The LDIF of ``kinds`` (users, contacts; both also get the shared lines) to
    ``stream``, record by record; how many entries were written. With the service's
    ``settings`` and both kinds, the contacts are written by a second process (the
    machine's other core) while this one writes the users."""
    stream.write(HEADER)
    count = 0
    base = base_entry(base_dn)
    if base is not None:
        stream.write(record(base_dn, base))
        count += 1
    if settings is not None and kinds == ("user", "contact") and (os.cpu_count() or 1) > 1:
        written, shared = await _beside_contacts(phonebook, base_dn, stream, settings)
    else:
        written, shared = await _records(phonebook, base_dn, kinds, stream)
    count += written
    if len(kinds) > 1:
        lines = await phonebook.shared_lines(shared)
        stream.write("".join(record(f"{line_rdn(line)},{base_dn}", line_attributes(line, phonebook.region))
                             for line in lines))
        count += len(lines)
    return count


async def _records(phonebook: Phonebook, base_dn: str, kinds: tuple[str, ...], stream: TextIO) -> tuple[int, list[str]]:
    """The records of ``kinds`` to ``stream``: (how many, the company and division numbers
    written on them, whose lines get one entry each after them)."""
    region = phonebook.region
    count, shared = 0, []
    async for batch in phonebook.entry_batches(kinds):
        stream.write("".join(record(f"{rdn(e)},{base_dn}", attributes(e, region)) for e in batch if e.id is not None))
        count += sum(1 for e in batch if e.id is not None)
        shared += (n for e in batch for f, n in e.numbers if f in SHARED_FIELDS)
    return count, shared


async def _beside_contacts(phonebook: Phonebook, base_dn: str, stream: TextIO,
                           settings: ServiceConfig) -> tuple[int, list[str]]:
    """The users to ``stream`` here while a spawned process writes the contacts to a
    private temporary file (0600), copied after them: making entries is Python work,
    and one process is one core (the export took twice as long in one)."""
    import multiprocessing
    import shutil
    import tempfile
    from concurrent.futures import ProcessPoolExecutor

    handle, part = tempfile.mkstemp(prefix="corpdir-ldif-", suffix=".part")
    os.close(handle)
    try:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            contacts = asyncio.get_running_loop().run_in_executor(pool, _contacts_apart, settings, base_dn, part)
            users, _ = await _records(phonebook, base_dn, ("user",), stream)
            count, shared = await contacts
        with open(part, encoding="utf-8") as written:
            shutil.copyfileobj(written, stream, 1 << 20)
    finally:
        os.unlink(part)
    return users + count, shared


def _contacts_apart(settings: ServiceConfig, base_dn: str, path: str) -> tuple[int, list[str]]:
    """In the second process: the contacts' records to ``path`` (see :func:`_records`)."""
    from corpdir.service.directory import DirectoryService

    async def run() -> tuple[int, list[str]]:
        service = DirectoryService.open(settings)
        phonebook = Phonebook(service, one_pass=True)
        try:
            with open(path, "w", encoding="utf-8") as stream:
                return await _records(phonebook, base_dn, ("contact",), stream)
        finally:
            phonebook.close()
            await service.close()

    return asyncio.run(run())


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
            await write_ldif(phonebook, args.base_dn, kinds, out, service.settings)
            return 0
        path = Path(args.output).expanduser()
        try:
            stream, part = open_private(path)
            ok = False
            try:
                count = await write_ldif(phonebook, args.base_dn, kinds, stream, service.settings)
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
