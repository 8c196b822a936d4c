"""`corpdir export users|contacts [--format csv|vcard] [filters...] [-o FILE]`: the list the
filters select (asked of the service: U1 / X1), as CSV or vCard 4.0. `corpdir export
--format ldif` writes the cached phonebook (users and shared contacts) as inetOrgPerson
entries for an LDAP server (:mod:`corpdir.gateway.ldap`)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from corpdir.commands.arg_types import at_least_one, filter_text, filter_words, record_id
from corpdir.commands.service_run import add_base_url

HELP = "export users or contacts (with filters) as CSV or vCard 4.0, or the phonebook as LDIF"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", nargs="?", choices=("users", "contacts"), help="what to export (LDIF: both when not given)")
    parser.add_argument("--format", choices=("csv", "vcard", "ldif"), default="csv", help="the file format (default: csv)")
    parser.add_argument("--base-dn", default="ou=phonebook,dc=example,dc=com", help="LDIF: the DN the entries go under")
    parser.add_argument("-o", "--output", help="the file to write (default: standard output)")
    parser.add_argument("--encoding", choices=("utf-8-sig", "utf-8"),
                        help="CSV files: utf-8-sig (the default: UTF-8 with a byte order mark, which Excel on Japanese "
                             "Windows needs to read the names) or utf-8 (no mark); vCard and LDIF are always UTF-8")
    parser.add_argument("--search", type=filter_words, action="extend", default=[],
                        help="free words (name, kana, number ...); repeat it or quote several words")
    parser.add_argument("--division", type=record_id, action="append", default=[], help="users: a division ID (repeatable)")
    parser.add_argument("--sub", action="store_true", help="users: include sub-divisions")
    parser.add_argument("--type", dest="userType", choices=("REGULAR_USER", "REGISTRATION_ONLY_USER", "FACILITY"),
                        help="users: one user type")
    parser.add_argument("--employee-num", dest="employeeNum", type=filter_text, help="users: an employee number")
    parser.add_argument("--phone", dest="phoneNum", type=_phone,
                        help="a phone number (however written: '（０３）５８９９ー５７２５' too)")
    parser.add_argument("--email", type=filter_text, help="users: email1; contacts: e-mail")
    parser.add_argument("--login-id", dest="loginId", type=filter_text, help="users: a login ID")
    parser.add_argument("--directory", choices=("SHARED", "PERSONAL"), help="contacts: one directory")
    parser.add_argument("--folder", type=record_id, action="append", default=[], help="contacts: a folder number (repeatable)")
    parser.add_argument("--name", dest="fullname", type=filter_text, help="contacts: part of the name")
    parser.add_argument("--company", dest="companyName", type=filter_text, help="contacts: part of the company name")
    add_base_url(parser)
    parser.add_argument("--limit", type=at_least_one, default=100_000, help="at most this many records (1 or more)")
    parser.add_argument("--from", dest="source", choices=("cache", "service"),
                        help="where to read the records (default: the cache when it has been synced and can apply "
                             "the filters, else the service, page by page)")


def _phone(text: str) -> str:
    """``--phone`` as a phone field sends it: the service takes only ASCII digits and
    ``* # , ; + -``, so a number typed in full width or laid out with spaces and
    parentheses was refused before it was sent ("phoneNum: may contain only digits")."""
    from corpdir.phone import phone_field_text

    return phone_field_text(filter_text(text))


USER_ONLY = {"division": "--division", "sub": "--sub", "userType": "--type", "employeeNum": "--employee-num",
             "loginId": "--login-id"}
CONTACT_ONLY = {"directory": "--directory", "folder": "--folder", "fullname": "--name", "companyName": "--company"}
# each filter of the query (corpdir.service.export) by the flag that sets it
FLAG_OF = {"userType": "--type", "employeeNum": "--employee-num", "phoneNum": "--phone", "email1": "--email",
           "email": "--email", "loginIds": "--login-id", "freeWords": "--search", "divisionIds": "--division",
           "folderNums": "--folder", "fullname": "--name", "companyName": "--company"}


def misplaced(args: argparse.Namespace) -> list[str]:
    """Flags given that do not apply to the kind exported (they would be ignored)."""
    other = CONTACT_ONLY if args.kind == "users" else USER_ONLY
    return [flag for dest, flag in other.items() if getattr(args, dest, None) not in (None, False, [])]


def filters(args: argparse.Namespace) -> dict[str, Any]:
    if args.kind == "users":
        query: dict[str, Any] = {"userType": args.userType, "employeeNum": args.employeeNum, "phoneNum": args.phoneNum,
                                 "email1": args.email, "loginIds": [args.loginId] if args.loginId else None,
                                 "freeWords": [w for w in args.search if w][:10]}
        if args.division:
            query["divisionIds"] = args.division
            if args.sub:
                query["includeSubDepartment"] = True
    else:
        query = {"directory": args.directory, "folderNums": args.folder or None, "fullname": args.fullname,
                 "companyName": args.companyName, "phoneNum": args.phoneNum, "email": args.email,
                 "freeWords": [w for w in args.search if w][:10]}
    return {k: v for k, v in query.items() if v not in (None, "", [])}


async def run_export(service: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Stream the selected records to ``args.output`` (a 0600 file written whole or not at
    all, with a progress bar on a terminal) or to ``out`` (neutralised like `lookup` when
    it is a terminal)."""
    from corpdir.service.errors import CorpdirError
    from corpdir.service.export import beyond_cache, export_writer, records
    from corpdir.service.messages import explain
    from corpdir.text import printable

    wrong = misplaced(args)
    if wrong:
        other = "contacts" if args.kind == "users" else "users"
        print(f"{', '.join(wrong)}: only for exporting {other}; nothing was exported", file=err)
        return 2
    if args.source == "cache" and (unapplied := beyond_cache(args.kind, filters(args))):
        # read from the cache, these filters would be left out: the file would hold everyone
        flags = ", ".join(dict.fromkeys(FLAG_OF[key] for key in unapplied))
        print(f"{flags}: the cache cannot apply this filter (it applies one --division, --sub, --directory, "
              "one --folder); leave out --from cache: nothing was exported", file=err)
        return 2
    if args.source == "cache" and await unsynced(service, (args.kind,), err):
        return 2
    try:
        found = await records(service, args.kind, filters(args), limit=args.limit, source=args.source)
        if not args.output:
            return await _to_stream(service, found, args, out, err)
        written = await _to_file(service, found, args, err)
    except CorpdirError as exc:
        print(printable(f"{explain(exc)}\nnothing was exported", keep_newlines=True), file=err)
        return 2
    except OSError as exc:
        if not args.output and isinstance(exc, BrokenPipeError):  # `| head`: corpdir.cli stops quietly
            raise
        print(printable(f"cannot write {args.output}: {exc.strerror or exc}: nothing was exported"), file=err)
        return 2
    print(printable(f"{written} {args.kind} written to {args.output} (from the {found.source})"), file=err)
    return 0


async def _to_stream(service: Any, found: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The records on ``out``, the first batch read before anything is written: a service
    that cannot be reached or refuses leaves the output empty, not a CSV header a script
    would take for an empty directory. A failure after that cannot take back what was
    written: it is said to be incomplete, with status 2."""
    from corpdir.service.errors import CorpdirError
    from corpdir.service.export import export_writer
    from corpdir.service.messages import explain
    from corpdir.text import printable

    batches = aiter(found.batches)
    first = await anext(batches, None)
    writer = await export_writer(service, args.kind, args.format, out, terminal=_is_terminal(out))
    try:
        if first:
            writer.write(first)
        async for batch in batches:
            writer.write(batch)
    except CorpdirError as exc:
        if not writer.count:
            raise
        print(printable(f"{explain(exc)}\nthe output is incomplete: it holds the first {writer.count} {args.kind} only",
                        keep_newlines=True), file=err)
        return 2
    return 0


async def unsynced(service: Any, kinds: tuple[str, ...], err: TextIO) -> bool:
    """The cache was never synced and holds none of ``kinds`` (a --base-url with no cache
    yet): said, so that an export of it is not an empty file that "succeeded". The demo's
    shipped people count as held."""
    counts = {"users": lambda: service.people.count(None), "contacts": service.contacts.count}
    for kind in kinds:
        if await counts[kind]() or await service.sync.age(kind) is not None:
            return False
    print(f"the cache of {service.label()} holds no {' or '.join(kinds)} yet: run `corpdir sync` first"
          f"{'' if len(kinds) > 1 else ' (or leave out --from cache)'}; nothing was exported", file=err)
    return True


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


async def _to_file(service: Any, found: Any, args: argparse.Namespace, err: TextIO) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from corpdir.service.export import export_writer, file_encoding, finish, open_private

    path = Path(args.output).expanduser()
    stream, part = open_private(path, file_encoding(args.format, getattr(args, "encoding", None)))
    ok = False
    columns = (TextColumn(f"exporting {args.kind}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=Console(file=err), transient=True) as progress:
            task = progress.add_task("export", total=found.total)
            writer = await export_writer(service, args.kind, args.format, stream)
            async for batch in found.batches:
                writer.write(batch)
                progress.advance(task, len(batch))
        ok = True
    finally:
        finish(stream, part, path, ok=ok)
    return writer.count


def run(args: argparse.Namespace) -> int:
    import sys

    from corpdir.commands.service_run import run_with_service

    if args.format == "ldif":
        from corpdir.gateway.ldap.export import run_ldif

        async def ldif(service: Any) -> int:
            kinds = (args.kind,) if args.kind else ("users", "contacts")
            return 2 if await unsynced(service, kinds, sys.stderr) else await run_ldif(service, args, sys.stdout, sys.stderr)

        return run_with_service(args.base_url, ldif, "export")
    if args.kind is None:
        print("corpdir export: say what to export (users or contacts); only --format ldif exports both", file=sys.stderr)
        return 2
    return run_with_service(args.base_url, lambda service: run_export(service, args, sys.stdout, sys.stderr), "export")
