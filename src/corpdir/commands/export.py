"""`corpdir export users|contacts [--format csv|vcard] [filters...] [-o FILE]`: the list the
filters select (asked of the service: U1 / X1), as CSV or vCard 4.0."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

HELP = "export users or contacts (with filters) as CSV or vCard 4.0"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=("users", "contacts"))
    parser.add_argument("--format", choices=("csv", "vcard"), default="csv")
    parser.add_argument("-o", "--output", help="the file to write (default: standard output)")
    parser.add_argument("--search", nargs="*", default=[], help="free words (name, kana, number ...)")
    parser.add_argument("--division", type=int, action="append", default=[], help="users: a division ID (repeatable)")
    parser.add_argument("--sub", action="store_true", help="users: include sub-divisions")
    parser.add_argument("--type", dest="userType", choices=("REGULAR_USER", "REGISTRATION_ONLY_USER", "FACILITY"),
                        help="users: one user type")
    parser.add_argument("--employee-num", dest="employeeNum")
    parser.add_argument("--phone", dest="phoneNum")
    parser.add_argument("--email", help="users: email1; contacts: e-mail")
    parser.add_argument("--login-id", dest="loginId")
    parser.add_argument("--directory", choices=("SHARED", "PERSONAL"), help="contacts: one directory")
    parser.add_argument("--folder", type=int, action="append", default=[], help="contacts: a folder number (repeatable)")
    parser.add_argument("--name", dest="fullname", help="contacts: part of the name")
    parser.add_argument("--company", dest="companyName", help="contacts: part of the company name")
    parser.add_argument("--base-url", help="the service (default: config file, CORPDIR_BASE_URL, else the embedded demo)")
    parser.add_argument("--limit", type=int, default=100_000, help="at most this many records")


USER_ONLY = {"division": "--division", "sub": "--sub", "userType": "--type", "employeeNum": "--employee-num",
             "loginId": "--login-id"}
CONTACT_ONLY = {"directory": "--directory", "folder": "--folder", "fullname": "--name", "companyName": "--company"}


def misplaced(args: argparse.Namespace) -> list[str]:
    """Flags given that do not apply to the kind exported (they would be ignored)."""
    other = CONTACT_ONLY if args.kind == "users" else USER_ONLY
    return [flag for dest, flag in other.items() if getattr(args, dest, None) not in (None, False, [])]


def filters(args: argparse.Namespace) -> dict[str, Any]:
    if args.kind == "users":
        query: dict[str, Any] = {"userType": args.userType, "employeeNum": args.employeeNum, "phoneNum": args.phoneNum,
                                 "email1": args.email, "loginIds": [args.loginId] if args.loginId else None}
        if args.division:
            query["divisionIds"] = args.division
            if args.sub:
                query["includeSubDepartment"] = True
    else:
        query = {"directory": args.directory, "folderNums": args.folder or None, "fullname": args.fullname,
                 "companyName": args.companyName, "phoneNum": args.phoneNum, "email": args.email}
        if args.search:
            query["freeWords"] = args.search[:10]
    return {k: v for k, v in query.items() if v not in (None, "", [])}


async def run_export(service: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from corpdir.client.errors import CorpdirError
    from corpdir.service.export import export
    from corpdir.service.messages import explain
    from corpdir.text import printable

    wrong = misplaced(args)
    if wrong:
        other = "contacts" if args.kind == "users" else "users"
        print(f"{', '.join(wrong)}: only for exporting {other}; nothing was exported", file=err)
        return 2
    try:
        if args.kind == "users":
            records = await service.search_users_remote(args.search, limit=args.limit, **filters(args))
        else:
            records = await service.list_contacts_remote(limit=args.limit, orderBy="fullname", **filters(args))
    except CorpdirError as exc:
        print(printable(explain(exc), keep_newlines=True), file=err)
        return 2
    text = export(args.kind, records, args.format)
    if args.output:
        from pathlib import Path

        try:
            Path(args.output).expanduser().write_text(text, encoding="utf-8")
        except OSError as exc:
            print(printable(f"cannot write {args.output}: {exc.strerror or exc}: nothing was exported"), file=err)
            return 2
        print(printable(f"{len(records)} {args.kind} written to {args.output}"), file=err)
    else:
        out.write(text)
    return 0


def run(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from corpdir.config import load_settings
    from corpdir.service.directory import DirectoryService

    async def main() -> int:
        settings, _ = load_settings(base_url=args.base_url)
        service = DirectoryService.open(settings)
        try:
            return await run_export(service, args, sys.stdout, sys.stderr)
        finally:
            await service.close()

    return asyncio.run(main())
