"""`corpdir gateway`: caller-ID and desk-phone directories over HTTP, from the cache."""

from __future__ import annotations

import argparse
from typing import Any

from corpdir.commands.arg_types import whole_number
from corpdir.commands.service_run import add_base_url

HELP = "serve caller-ID and phone directories to PBXs and desk phones (HTTP, from the local cache)"

SETUP = """\
URLs (BASE is http://HOST:PORT/t/TOKEN; with basic auth, http://USER:PASS@HOST:PORT):
  caller name, whole body      BASE/cid?number=NUMBER          (unknown: 404, empty body)
  key=value (Asterisk HASH)    BASE/cid.kv?number=NUMBER
  JSON (3CX, scripts)          BASE/cid.json?number=NUMBER
  add &ascii=1 to any URL for names in ASCII (romanised where the directory has no alphabet name)

FreePBX: Admin > CallerID Lookup Sources > Add:
  Source type: HTTP   Host: HOST   Port: PORT   Path: t/TOKEN/cid   Query: number=[NUMBER]
  (then choose the source on the inbound route). FreePBX puts the number in as
  ${STRREPLACE(CALLERID(num),"+",%2B)}. With basic auth instead: Username USER, Password
  PASS; FreePBX PHP-urlencodes the password, so one with a space gets 401 every time.
  Superfecta instead: source "Regular Expressions 1", URL BASE/cid?number=$thenumber&ascii=1,
  Regular Expressions: (.*)   &ascii=1 is required, not optional: Superfecta's charset is IA5
  (hard-wired), and its stripAccents rewrites UTF-8 byte by byte, so a Japanese name comes
  out garbled without it; it keeps the first 60 characters and waits at most 3 s.

Asterisk dialplan (func_curl):
  same => n,Set(CALLERID(name)=${CURL(BASE/cid?number=${CALLERID(num)})})
  or every field:
  same => n,Set(CURLOPT(hashcompat)=yes)
  same => n,Set(HASH(who)=${CURL(BASE/cid.kv?number=${CALLERID(num)})})
  same => n,Set(CALLERID(name)=${HASH(who,name)})    ; also company, division, type, id
  (CURL() trims trailing blanks only; before Asterisk 11.23/13.10 it could also cut the last
  byte of a UTF-8 name ending in a multi-byte character: use &ascii=1 there.)

FreeSWITCH autoload_configs/cidlookup.conf.xml:
  <configuration name="cidlookup.conf" description="cidlookup Configuration">
    <settings>
      <param name="url" value="BASE/cid?number=${caller_id_number}"/>
      <param name="cache" value="false"/>
    </settings>
  </configuration>
  dialplan: <action application="cidlookup" data="${caller_id_number}"/>
  (mod_cidlookup sends the number's digits only; for an unknown number it sets the caller
  name to "UNKNOWN", not an empty name.)

3CX: Settings > CRM Integration > Server Side > Add: upload BASE/3cx.xml (GatewayUrl is filled in;
  fetched with basic auth, the template authenticates: type the password into 3CX).

Desk phones (remote phonebook URLs):
  Yealink   Directory > Remote Phone Book: BASE/yealink/directory.xml?q=#SEARCH
            grouped by division: BASE/yealink/phonebook.xml
  Cisco     IP phone service / Directories URL: BASE/cisco/directory.xml  (search: BASE/cisco/search.xml)
            pages of at most 4,000 bytes (older models' limit); a newer model: add ?bytes=16000
  Snom      Setup > Advanced > XML directory: BASE/snom/directory.xml
  Grandstream  Phonebook > Phonebook XML download: HTTP, server HOST:PORT/t/TOKEN/grandstream (file phonebook.xml)
  LDAP-only phones: see `corpdir ldap-sync --help`.

Check every URL above against the running gateway: corpdir gateway --check [NUMBER].
Prometheus scrapes BASE/metrics (the same token or basic auth)

The token is kept in the data folder (gateway-token, mode 0600) unless given with --token,
CORPDIR_GATEWAY_TOKEN or [gateway] token in the config file.
"""




def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = SETUP
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, help="port (default 8765)")
    parser.add_argument("--token", help="the secret path token (default: generated once, kept in the data folder)")
    parser.add_argument("--user", help="HTTP basic auth user (the password from CORPDIR_GATEWAY_PASSWORD or the config file)")
    parser.add_argument("--allow", action="append", help="a client address or network allowed (repeatable; default any)")
    parser.add_argument("--deadline-ms", type=float, help="longest wait for the service on an uncached number (default 300)")
    parser.add_argument("--n1-share", type=float,
                        help="share of the key's rate budget kept for uncached numbers, 0-0.9 (default 0.25; a sync never spends it)")
    parser.add_argument("--sync-every", type=float, help="seconds between background syncs (default 900; 0: never)")
    parser.add_argument("--public-url", help="the URL phones reach this gateway at (default: as each request came)")
    parser.add_argument("--workers", type=worker_count_flag,
                        help="worker processes sharing the port, 1 to one a core (default: one a core but one, at least one;"
                             " the first syncs and asks the service)")
    add_base_url(parser)
    parser.add_argument("--check", nargs="?", const="0399990000", metavar="NUMBER",
                        help="do not serve: print each PBX's and phone's URL and fetch it once from the running "
                             "gateway (with NUMBER as the caller; default an unknown number)")


def worker_count_flag(text: str) -> int:
    """--workers: a whole number from 1 to the cores of this machine. A worker is a whole
    event loop with its own copy of the cache's answers (hundreds of MiB at 100k people):
    one more than the cores answers nothing faster, and 99999 forked until the machine
    stopped."""
    import os

    return whole_number(text, 1, os.cpu_count() or 1)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "check", None) is not None:
        return check(args)
    import sys

    from corpdir.commands.server import why_not_listening
    from corpdir.gateway.server import main

    try:
        return main(args)
    except OSError as exc:  # the port taken, a host not this machine's: said plainly, not a traceback
        if (why := why_not_listening(exc)) is None:
            raise
        from corpdir.config import load_settings

        gateway = load_settings(gateway=_flags(args)).gateway
        print(f"corpdir gateway: cannot listen on {gateway.host}:{gateway.port}: {why}", file=sys.stderr)
        return 2


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The ``[gateway]`` settings given on the command line."""
    from corpdir.gateway.server import FLAGS

    return {k: v for k in FLAGS if (v := getattr(args, k, None)) is not None}


def check(args: argparse.Namespace) -> int:
    """``--check``: the settings as `corpdir gateway` would serve them, each consumer's URL fetched once."""
    from pydantic import SecretStr

    from corpdir.config import load_settings
    from corpdir.gateway.check import check as fetch_each
    from corpdir.gateway.server import stored_token

    settings = load_settings(gateway=_flags(args)).gateway
    if settings.token is None and settings.user is None:
        settings = settings.model_copy(update={"token": SecretStr(stored_token())})
    return 0 if fetch_each(settings, args.check, print) else 1
