"""`corpdir gateway --check`: for each PBX and phone, the URL to type into it, fetched
once from the running gateway, with what came back (the caller name a PBX would show,
or the document a phone would read), so a setting can be checked before a call fails.

Fetched with the standard library: HTTP clients stay in the API client and the dialers
(the import contract), and one GET per consumer needs nothing more.
"""

from __future__ import annotations

import base64
import urllib.error
import urllib.request
from urllib.parse import quote
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Callable

from corpdir.config import GatewayConfig
from corpdir.text import printable


@dataclass(frozen=True)
class Consumer:
    name: str
    shown: str  # the URL as typed into the consumer (its own number variable)
    path: str  # the same URL's path and query, with NUMBER for the number
    kind: str  # "name": a caller name; "xml": a phone document; "text": anything else


CONSUMERS = (
    Consumer("FreePBX", "Path: t/TOKEN/cid  Query: number=[NUMBER]", "/cid?number=NUMBER", "name"),
    Consumer("Asterisk", "BASE/cid?number=${CALLERID(num)}", "/cid?number=NUMBER", "name"),
    Consumer("Asterisk kv", "BASE/cid.kv?number=${CALLERID(num)}  (CURLOPT(hashcompat)=yes)", "/cid.kv?number=NUMBER", "name"),
    Consumer("Superfecta", "BASE/cid?number=$thenumber&ascii=1  pattern (.*)", "/cid?number=NUMBER&ascii=1", "name"),
    Consumer("FreeSWITCH", "BASE/cid?number=${caller_id_number}", "/cid?number=NUMBER", "name"),
    Consumer("3CX", "upload BASE/3cx.xml", "/3cx.xml", "xml"),
    Consumer("Yealink", "BASE/yealink/directory.xml?q=#SEARCH", "/yealink/directory.xml?q=NUMBER", "xml"),
    Consumer("Cisco", "BASE/cisco/directory.xml", "/cisco/directory.xml", "xml"),
    Consumer("Snom", "BASE/snom/directory.xml", "/snom/directory.xml", "xml"),
    Consumer("Grandstream", "BASE/grandstream/phonebook.xml", "/grandstream/phonebook.xml", "xml"),
    Consumer("Prometheus", "BASE/metrics", "/metrics", "text"),
)


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    content: bytes


def fetch(url: str, authorization: str | None) -> Answer:
    request = urllib.request.Request(url, headers={"Authorization": authorization} if authorization else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return Answer(reply.status, {k.lower(): v for k, v in reply.headers.items()}, reply.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


def origin_of(host: str, port: int) -> str:
    """``http://HOST:PORT``, an IPv6 address in brackets (``http://[::1]:8765``): without
    them the URL printed for a PBX is not one it, a browser or urllib can use."""
    return f"http://[{host}]:{port}" if ":" in host and not host.startswith("[") else f"http://{host}:{port}"


def base_urls(settings: GatewayConfig) -> tuple[str, str, str | None]:
    """(the base URL to show, the base URL to fetch from, the Authorization header to fetch with)."""
    host = settings.host if settings.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    origin = origin_of(host, settings.port)
    if settings.token is not None:
        path = f"/t/{settings.token.get_secret_value()}"
        return (settings.public_url or origin + path).rstrip("/"), origin + path, None
    password = settings.password.get_secret_value() if settings.password else ""
    authorization = "Basic " + base64.b64encode(f"{settings.user or ''}:{password}".encode()).decode()
    shown = (settings.public_url or origin).replace("://", f"://{settings.user}:PASS@", 1)
    return shown.rstrip("/"), origin, authorization


def _outcome(consumer: Consumer, answer: Answer) -> tuple[bool, str]:
    if refused := answer.headers.get("x-corpdir-error"):
        return False, f"{answer.status}: refused ({refused})"
    if consumer.kind == "name":
        if answer.status == 404 and not answer.content:
            return True, "no name (404, empty): the number is nobody's"
        name = printable(answer.content.decode("utf-8", "replace"))
        return answer.status == 200 and bool(name), f"{answer.status}: shows {name!r}"
    if answer.status != 200:
        return False, f"{answer.status}"
    if consumer.kind == "xml":
        try:
            root = ET.fromstring(answer.content)
        except ET.ParseError as exc:
            return False, f"not well-formed XML ({exc})"
        entries = sum(1 for e in root if e.tag in ("DirectoryEntry", "Contact", "Menu", "Scenarios"))
        return True, f"200: {root.tag}, {entries} item(s), {len(answer.content):,} bytes"
    return True, f"200: {len(answer.content):,} bytes"


def check(settings: GatewayConfig, number: str, out: Callable[[str], None]) -> bool:
    """Fetch every consumer's URL once; print what each would get. True: all answered as expected."""
    shown, fetch_base, authorization = base_urls(settings)
    out(f"BASE is {shown}")
    good = True
    for consumer in CONSUMERS:
        url = fetch_base + consumer.path.replace("NUMBER", quote(number, safe="+:@"))
        try:
            ok, what = _outcome(consumer, fetch(url, authorization))
        except OSError as exc:
            ok, what = False, f"no answer ({exc.__class__.__name__}): is `corpdir gateway` running?"
        good &= ok
        out(f"{consumer.name:<12} {consumer.shown}\n{'':<12} {'ok' if ok else 'FAILED'}  {what}")
    return good
