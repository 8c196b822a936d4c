"""The consumer harness: for each PBX and phone, a small reader that does to the gateway's
answer what that consumer's own source does, step by step, and returns what it would show.

Each reader is written from the consumer's source or documentation (cited in its
docstring; rules restated, no code copied) and fetches over real HTTP from a running
gateway. ``None`` is "no name shown"; a consumer that shows a word of its own for no name
(FreeSWITCH's "UNKNOWN") returns that word.
"""

from __future__ import annotations

import base64
import html
import json
import re
import xml.etree.ElementTree as ET
from typing import Any, Callable
from urllib.parse import quote, quote_plus, unquote

import httpx

Get = Callable[..., httpx.Response]


def _get(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(url, timeout=30, follow_redirects=True, **kwargs)


# -- FreePBX and Asterisk ----------------------------------------------------------------------
def freepbx_url(origin: str, path: str, number: str, user: str = "", password: str = "") -> str:
    """FreePBX cidlookup ``functions.inc.php`` (``cidlookup_hookGet_config``, HTTP source):
    the dialplan line is ``CURL(http://USER:PASS@HOST:PORT/PATH?QUERY)`` where the query's
    ``[NUMBER]`` becomes ``${STRREPLACE(CALLERID(num),"+",%2B)}`` (a '+' sent as ``%2B``,
    since 2019) and user and password are PHP-``urlencode``d (a space becomes '+', which
    curl then sends as a literal '+')."""
    credentials = f"{quote_plus(user, safe='')}:{quote_plus(password, safe='')}@" if user else ""
    scheme, _, host = origin.partition("://")
    return f"{scheme}://{credentials}{host}/{path}?number={number.replace('+', '%2B')}"


def asterisk_curl(url: str) -> str:
    """Asterisk ``funcs/func_curl.c`` (``acf_curl_helper``): the body whatever the status,
    trailing blanks trimmed (``ast_trim_blanks``: only the end, only whitespace; before
    11.23/13.10 a trailing byte of a multi-byte UTF-8 character could be cut with them).
    The body becomes ``CALLERID(name)``; an empty one leaves the name empty."""
    return _get(url).content.decode("utf-8", "replace").rstrip(" \t\r\n")


def asterisk_hashcompat(url: str) -> dict[str, str]:
    """func_curl with ``CURLOPT(hashcompat)=yes`` (``acf_curl_helper``): the trimmed body
    split on '&' into fields and each on '=' into name and value, both decoded by
    ``ast_uri_decode`` ('%XX' only; a '+' stays a '+')."""
    fields = {}
    for piece in asterisk_curl(url).split("&"):
        if piece:
            name, _, value = piece.partition("=")
            fields[unquote(name)] = unquote(value)
    return fields


def freepbx(origin: str, token_path: str, number: str) -> str | None:
    """FreePBX CallerID Lookup Source, type HTTP, Path ``t/TOKEN/cid``, Query
    ``number=[NUMBER]``; Asterisk's CURL() reads it; the name shown is CALLERID(name)."""
    return asterisk_curl(freepbx_url(origin, f"{token_path}/cid", number)) or None


def asterisk_hash_name(base: str, number: str) -> str | None:
    """The dialplan in ``corpdir gateway --help``: ``HASH(who)=${CURL(BASE/cid.kv?number=
    ${CALLERID(num)})}`` (the number raw in the URL), then ``CALLERID(name)=${HASH(who,name)}``."""
    return asterisk_hashcompat(f"{base}/cid.kv?number={number}").get("name") or None


# -- Superfecta ----------------------------------------------------------------------------
# superfecta_base.php ``stripAccents``: strtr() with two strings is a byte-for-byte table
# (its source text is Windows-1252 letters read as MacRoman: these bytes), then byte 0xA0
# (no-break space in Latin-1) becomes a space.
_STRIP_FROM = "ŠŒŽšœžŸ¥µÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝßàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ".encode("cp1252")  # no ð
_STRIP_TO = b"SOZsozYYuAAAAAAACEEEEIIIIDNOOOOOOUUUUYsaaaaaaaceeeeiiiionoooooouuuuyy"
_STRIP = bytes.maketrans(_STRIP_FROM, _STRIP_TO[:len(_STRIP_FROM)])  # strtr: the shorter length
SUPERFECTA_TIMEOUT = 3.0  # Superfecta 16.0.29 sets curl's connect and total timeouts to 3 s


def superfecta(url_template: str, number: str) -> str | None:
    """FreePBX Superfecta, source "Regular Expressions 1" with the pattern ``(.*)``:

    1. ``get_url_contents`` (superfecta_base.php): curl with ``CURLOPT_FAILONERROR`` (a
       status of 400 or more reads as an empty page) and a 3 s timeout; the page trimmed;
       a page of exactly "1" is taken as empty.
    2. The source's regular expression on the page: the first match's first group.
    3. The scheme's post-processing (Superfecta.class.php, the caller-ID path):
       ``html2text``-style tag stripping and entity decoding, trim; with the scheme's
       charset IA5 (hard-wired true in the base class) ``stripAccents``; the characters
       ``"``, ``;`` and ``'`` removed; the first 60 bytes kept; then re-encoded as UTF-8
       (``mb_convert_encoding``: bytes that are not UTF-8 become '?').
    The name shown is those bytes.
    """
    url = url_template.replace("$thenumber", quote(number, safe="+:@"))
    try:
        answer = httpx.get(url, timeout=SUPERFECTA_TIMEOUT)
    except httpx.TimeoutException:
        return None
    page = b"" if answer.status_code >= 400 else answer.content.strip()
    if page == b"1":
        page = b""
    found = re.search(rb"(.*)", page)
    name = found.group(1) if found else b""
    if not name:
        return None
    name = re.sub(rb"<[^>]*>", b"", name).strip()
    name = html.unescape(name.decode("latin-1")).encode("latin-1", "replace")  # PHP works on bytes
    name = name.translate(_STRIP).replace(b"\xa0", b" ")
    name = re.sub(rb"[\";']", b"", name)[:60]
    return name.decode("utf-8", "replace").replace("\ufffd", "?") or None


# -- FreeSWITCH -------------------------------------------------------------------------------
def freeswitch(url_template: str, number: str) -> str:
    """FreeSWITCH ``mod_cidlookup.c``: ``do_lookup`` keeps only the digits of the number
    (``string_digitsonly``) and puts them in ``${caller_id_number}``; ``do_lookup_url``
    GETs the URL (redirects followed), takes at most 1024 bytes of the body whatever the
    status, and a body that is empty or a single space is no name; the application then
    sets the caller name to "UNKNOWN" when there is none (current releases)."""
    digits = "".join(c for c in number if c.isdigit())
    body = _get(url_template.replace("${caller_id_number}", digits)).content
    if len(body) > 1024:
        return "UNKNOWN"
    text = body.decode("utf-8", "replace")
    return "UNKNOWN" if text in ("", " ") else text


# -- 3CX --------------------------------------------------------------------------------------
def _path(data: Any, path: str) -> Any:
    for step in path.split("."):
        if isinstance(data, list):
            data = data[int(step)] if step.isdigit() and int(step) < len(data) else None
        elif isinstance(data, dict):
            data = data.get(step)
        else:
            return None
        if data is None:
            return None
    return data


def threecx(template: bytes, typed: dict[str, str], number: str) -> dict[str, str] | None:
    """3CX's server-side CRM lookup, as 3cx.com describes the template: the parameters'
    values (their Default unless the administrator typed another, ``typed``) and
    ``[Number]`` filled into the scenario's URL; ``Authentication Type="Basic"`` sends its
    Value ('user:password', parameters filled) as HTTP basic auth; the JSON answer is a
    contact only if every ``Rule`` path has a value; Variables read by JSON path; Outputs
    filled from them. None: no contact."""
    root = ET.fromstring(template)
    values = {p.get("Name"): typed.get(p.get("Name"), p.get("Default") or "") for p in root.iter("Parameter")}
    fill = lambda text, extra: re.sub(r"\[(\w+)\]", lambda m: {**values, **extra}.get(m.group(1), m.group(0)), text)
    auth = root.find("Authentication")
    headers = {}
    if auth is not None and auth.get("Type") == "Basic":
        headers["Authorization"] = "Basic " + base64.b64encode(fill(auth.findtext("Value"), {}).encode()).decode()
    scenario = next(s for s in root.iter("Scenario") if s.get("Id") == "")
    request = scenario.find("Request")
    answer = _get(fill(request.get("Url"), {"Number": number}), headers=headers)
    if answer.status_code != 200:
        return None
    data = json.loads(answer.content)
    if not all(_path(data, rule.text) not in (None, "") for rule in scenario.iter("Rule")):
        return None
    variables = {v.get("Name"): str(_path(data, v.get("Path")) or "") for v in scenario.iter("Variable")}
    return {o.get("Type"): fill(o.get("Value"), variables) for o in scenario.iter("Output")}


def threecx_shown(outputs: dict[str, str] | None) -> str | None:
    """The caller 3CX shows for a contact: last name then first name (a Japanese
    installation's order), else the company."""
    if outputs is None:
        return None
    return " ".join(x for x in (outputs.get("LastName"), outputs.get("FirstName")) if x) or outputs.get("CompanyName") or None


# -- desk phones --------------------------------------------------------------------------------
# The elements and attributes each maker documents for its format (Cisco IP Phone Services
# Application Development Notes; Snom xml_minibrowser; Yealink remote phonebook guide;
# Grandstream XML phonebook guide). A reader refuses anything else: a phone ignores it.
DOCUMENTED = {
    "CiscoIPPhoneDirectory": {"CiscoIPPhoneDirectory", "Title", "Prompt", "DirectoryEntry", "Name", "Telephone",
                              "SoftKeyItem", "URL", "Position"},
    "SnomIPPhoneDirectory": {"SnomIPPhoneDirectory", "Title", "Prompt", "DirectoryEntry", "Name", "Telephone",
                             "SoftKeyItem", "Label", "Url"},
    "YealinkIPPhoneDirectory": {"YealinkIPPhoneDirectory", "Title", "DirectoryEntry", "Name", "Telephone"},
    "AddressBook": {"AddressBook", "Contact", "LastName", "FirstName", "Company", "Department", "Phone",
                    "phonenumber", "accountindex"},
}
GRANDSTREAM_TYPES = {"Work", "Home", "Mobile", "Fax", "Other"}


def phone_document(body: bytes) -> ET.Element:
    """A directory as a phone parses it: strict XML, only documented elements, each
    maker's limits (Cisco: 32 entries; Grandstream: documented types, accounts 0-5)."""
    root = ET.fromstring(body)
    assert {e.tag for e in root.iter()} <= DOCUMENTED[root.tag], {e.tag for e in root.iter()} - DOCUMENTED[root.tag]
    if root.tag == "CiscoIPPhoneDirectory":
        assert len(root.findall("DirectoryEntry")) <= 32
    if root.tag == "AddressBook":
        phones = list(root.iter("Phone"))
        assert {p.get("type") for p in phones} <= GRANDSTREAM_TYPES
        assert {p.findtext("accountindex") for p in phones} <= {"0", "1", "2", "3", "4", "5"}
    return root


def yealink_incoming(base: str, number: str) -> str | None:
    """Yealink's remote phonebook lookup of an incoming call: the phonebook URL with
    ``#SEARCH`` replaced by the number received (``?q=``); the name shown is the first
    entry's whose Telephone is that number (digits compared)."""
    root = phone_document(_get(f"{base}/yealink/directory.xml", params={"q": number}).content)
    wanted = "".join(c for c in number if c.isdigit())
    for entry in root.findall("DirectoryEntry"):
        for phone in entry.findall("Telephone"):
            have = "".join(c for c in phone.text or "" if c.isdigit())
            if have and (wanted.endswith(have[1:]) if have.startswith("0") else wanted == have):
                return entry.findtext("Name")
    return None
