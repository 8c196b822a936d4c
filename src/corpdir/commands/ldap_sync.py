"""`corpdir ldap-sync`: keep an OpenLDAP (slapd) tree in step with the local cache."""

from __future__ import annotations

import argparse

from corpdir.commands.service_run import add_base_url

HELP = "keep an LDAP tree (inetOrgPerson entries for desk phones) in step with the cache, sending only changes"

PHONES = """\
The entries are flat under --base-dn (created when missing and named ou=...), one per user
and shared contact: uid=user-N / uid=contact-N, displayName, cn (name, kana reading,
alphabet name), sn, telephoneNumber, mobile, mail, ou (division path), o (company).
The password comes from --password-file or CORPDIR_LDAP_PASSWORD (never the command line).

Yealink: Directory > LDAP: Server HOST, Port 389, Base BASE-DN, Name Filter (|(cn=%)(sn=%)),
  Number Filter (|(telephoneNumber=%)(mobile=%)), Display Name displayName,
  Name Attributes displayName cn sn, Number Attributes telephoneNumber mobile, LDAP Lookup For Incoming Call on.
Grandstream: Phonebook > LDAP: Base BASE-DN, Name Filter (|(cn=%)(sn=%)),
  Number Filter (|(telephoneNumber=%)(mobile=%)), Name Attributes "displayName cn sn",
  Number Attributes "telephoneNumber mobile", Display Name %displayName, Lookup Display Name displayName
  (cn also holds the readings and the romaji: shown, it would be the first of them).
A slapd configuration that works: docs/gateway.md."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = PHONES
    parser.add_argument("--url", required=True, help="the LDAP server, e.g. ldap://127.0.0.1:389")
    parser.add_argument("--base-dn", required=True, help="where the entries live, e.g. ou=phonebook,dc=example,dc=com")
    parser.add_argument("--bind-dn", help="who writes them, e.g. cn=admin,dc=example,dc=com")
    parser.add_argument("--password-file", help="a file holding the bind password")
    parser.add_argument("--sync", action="store_true", help="bring the cache up to date from the service first")
    parser.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    add_base_url(parser)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import os
    import sys
    from pathlib import Path

    from corpdir.commands.service_run import open_service
    from corpdir.config import load_settings
    from corpdir.gateway.ldap.entries import directory
    from corpdir.gateway.ldap.sync import LdapError, apply
    from corpdir.service.phonebook import Phonebook

    password = os.environ.get("CORPDIR_LDAP_PASSWORD")
    if args.password_file:
        try:
            password = Path(args.password_file).read_text(encoding="utf-8").rstrip("\r\n")
        except OSError as exc:
            print(f"corpdir ldap-sync: --password-file: cannot read {args.password_file}: {exc.strerror}", file=sys.stderr)
            return 2
    if args.bind_dn and password is None:
        print("corpdir ldap-sync: --bind-dn needs a password (--password-file or CORPDIR_LDAP_PASSWORD)", file=sys.stderr)
        return 2

    async def main() -> int:
        service = open_service(load_settings(service={"base_url": args.base_url}).service, "ldap-sync")
        if service is None:
            return 2
        try:
            if args.sync:
                await service.sync.run()
            phonebook = Phonebook(service)
            try:
                wanted = await directory(phonebook, args.base_dn)
            finally:
                phonebook.close()
            result = await asyncio.to_thread(apply, args.url, args.base_dn, args.bind_dn, password, wanted,
                                             dry_run=args.dry_run)
        except LdapError as exc:
            print(f"corpdir ldap-sync: {exc}", file=sys.stderr)
            return 2
        finally:
            await service.close()
        print(("would be: " if args.dry_run else "") + result.summary())
        return 0

    return asyncio.run(main())
