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
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from corpdir.gateway.ldap.entries import attributes, base_entry, line_attributes, line_rdn, rdn
from corpdir.gateway.ldap.ldif import HEADER, record
from corpdir.service.export import finish, open_private
from corpdir.service.identify import SHARED_FIELDS
from corpdir.service.phonebook import Phonebook
from corpdir.text import printable

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from corpdir.config import ServiceConfig

_FILTERS = ("search", "division", "sub", "userType", "employeeNum", "phoneNum", "email", "loginId", "directory",
            "folder", "fullname", "companyName", "source")


async def write_ldif(phonebook: Phonebook, base_dn: str, kinds: tuple[str, ...], stream: TextIO,
                     settings: ServiceConfig | None = None) -> int:
    """The LDIF of ``kinds`` (users, contacts; both also get the shared lines) to
    ``stream``, record by record; how many entries were written. With the service's
    ``settings`` and both kinds, the contacts and the shared lines are written by a second
    process (the machine's other core) while this one writes the users."""
    stream.write(HEADER)
    count = 0
    base = base_entry(base_dn)
    if base is not None:
        stream.write(record(base_dn, base))
        count += 1
    if settings is not None and kinds == ("user", "contact") and (os.cpu_count() or 1) > 1:
        return count + await _beside_contacts(phonebook, base_dn, stream, settings)
    written, shared = await _records(phonebook, base_dn, kinds, stream)
    if len(kinds) > 1:
        written += await _lines(phonebook, base_dn, shared, stream)
    return count + written


async def _records(phonebook: Phonebook, base_dn: str, kinds: tuple[str, ...], stream: TextIO) -> tuple[int, list[str]]:
    """The records of ``kinds`` to ``stream``: (how many, the company and division numbers
    written on them, whose lines get one entry each after them)."""
    region = phonebook.region
    count, shared = 0, {}  # each number once, in the order first written (the lines' order)
    async for batch in phonebook.entry_batches(kinds):
        stream.write("".join(record(f"{rdn(e)},{base_dn}", attributes(e, region)) for e in batch if e.id is not None))
        count += sum(1 for e in batch if e.id is not None)
        shared.update(dict.fromkeys(n for e in batch for f, n in e.numbers if f in SHARED_FIELDS))
    return count, list(shared)


async def _lines(phonebook: Phonebook, base_dn: str, shared: list[str], stream: TextIO) -> int:
    """One entry for each division's own number and each company or division number in
    ``shared`` (written on the contacts), to ``stream``: how many."""
    lines = await phonebook.shared_lines(shared)
    for start in range(0, len(lines), 2000):  # a few at a time: 18k lines at once were 20 MB of text and parts
        stream.write("".join(record(f"{line_rdn(line)},{base_dn}", line_attributes(line, phonebook.region))
                             for line in lines[start:start + 2000]))
    return len(lines)


async def _beside_contacts(phonebook: Phonebook, base_dn: str, stream: TextIO, settings: ServiceConfig) -> int:
    """The users to ``stream`` here while a spawned process writes the contacts and the
    shared lines to a private temporary file (0600), copied after them: making entries is
    Python work, and one process is one core. The lines are the second process's: they
    need the contacts' numbers it has just read, and the two halves then take about as
    long (docs/performance.md, the LDIF row). When this side stops (a reader that closed
    the pipe), the second process is ended rather than waited for."""
    import multiprocessing

    handle, part = tempfile.mkstemp(prefix="corpdir-ldif-", suffix=".part")
    os.close(handle)
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    apart = context.Process(target=_contacts_apart, args=(settings, base_dn, part, send), daemon=True)
    try:
        apart.start()
        send.close()  # this side's copy: a second process that died leaves recv() an EOFError, not a wait
        users, _ = await _records(phonebook, base_dn, ("user",), stream)
        count = await asyncio.get_running_loop().run_in_executor(None, receive.recv)
        apart.join()
        _copy(part, stream)
        return users + count
    except EOFError:
        raise RuntimeError(f"the process writing the contacts ended without them (exit code {apart.exitcode})") from None
    finally:
        if apart.is_alive():
            apart.terminate()
            apart.join()
        receive.close()
        os.unlink(part)


def _copy(part: str, stream: TextIO) -> None:
    """``part`` (UTF-8 text, '\\n' line ends) appended to ``stream``: as bytes where the
    stream has a byte buffer and writes '\\n' as it is (65 MB of contacts need no decoding
    and encoding again), else as text."""
    binary = getattr(stream, "buffer", None) if os.linesep == "\n" else None
    stream.flush()
    if binary is not None:
        with open(part, "rb") as src:
            shutil.copyfileobj(src, binary, 1 << 20)
    else:
        with open(part, encoding="utf-8", newline="") as src:
            shutil.copyfileobj(src, stream, 1 << 20)


def _contacts_apart(settings: ServiceConfig, base_dn: str, path: str, done: Connection) -> None:
    """In the second process: the contacts' records and the shared lines to ``path`` (see
    :func:`_records`); how many, sent on ``done``."""
    from corpdir.service.directory import DirectoryService

    async def run() -> int:
        service = DirectoryService.open(settings)
        phonebook = Phonebook(service, one_pass=True)
        try:
            with open(path, "w", encoding="utf-8", newline="") as stream:
                count, shared = await _records(phonebook, base_dn, ("contact",), stream)
                return count + await _lines(phonebook, base_dn, shared, stream)
        finally:
            phonebook.close()
            await service.close()

    done.send(asyncio.run(run()))
    done.close()


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
        if not args.output:  # a closed pipe (`| head`) raises BrokenPipeError: corpdir.cli stops quietly
            await write_ldif(phonebook, args.base_dn, kinds, out, service.settings)
            out.flush()
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
