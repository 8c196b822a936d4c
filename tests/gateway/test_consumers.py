"""Every holder of a number, in every form a PBX or phone may send it, through every
consumer's reader (:mod:`tests.gateway.consumers`), over real HTTP to a running gateway:
the name each consumer would show is asserted."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from corpdir.gateway.access import freepbx_breaks
from corpdir.phone import digits
from corpdir.service.backend import backend_of

from . import consumers
from .conftest import PASSWORD, TOKEN, USER, RunningGateway


@dataclass
class Holder:
    kind: str
    number: str  # as the directory writes it ('' for a withheld caller)
    name: str | None  # what a phone display should say (None: no name)
    ascii: str | None = None  # the same in ASCII, where the directory has an alphabet name


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    gateway = RunningGateway(tmp_path_factory.mktemp("consumers"))
    yield gateway
    gateway.stop()


@pytest.fixture(scope="module")
def holders(running) -> dict[str, Holder]:
    users = running.call(running.service.people.window(None, limit=10_000))
    contacts = running.call(running.service.contacts.window("SHARED", limit=10_000))
    store = backend_of(running.service).store
    person = next(u for u in users if u.phoneNum and u.fullnameAlphabet)
    contact = next(c for c in contacts if c.phoneNum and c.fullnameAlphabet)
    company = next(c for c in contacts if c.companyDelegatedPhoneNum)
    line = next(c for c in contacts if c.divisionDelegatedPhoneNum and c.divisionName)
    division = next(d for d, _ in reversed(store.all_divisions()) if d.divisionPhoneNum)
    path = " › ".join(store.division_paths([division.divisionId])[division.divisionId])
    return {h.kind: h for h in (
        Holder("person", person.phoneNum, person.fullname, person.fullnameAlphabet),
        Holder("contact", contact.phoneNum, contact.fullname, contact.fullnameAlphabet),
        Holder("company line", company.companyDelegatedPhoneNum, company.companyName),
        Holder("division line", line.divisionDelegatedPhoneNum, f"{line.companyName} {line.divisionName}"),
        Holder("division's own", division.divisionPhoneNum, path),
        Holder("unknown", "03-9999-0000", None),
        Holder("withheld", "", None),
    )}


def forms(holder: Holder) -> list[str]:
    """Every spelling a PBX or phone may hand on: as written, national digits, E.164 with
    and without '+', behind an outside-line '0', with the international prefix of Japan
    (010), of most of the world (00) and both behind a line prefix, and as a SIP or tel URI."""
    if not holder.number:
        return ["anonymous", "Restricted", ""]
    national = digits(holder.number)
    e164 = "81" + national[1:]
    return [holder.number, national, "+" + e164, e164, "0" + national, "010" + e164, "00" + e164, "000" + e164,
            "0010" + e164, f"sip:{national}@pbx.example;user=phone", f"tel:+{e164}"]


KINDS = ("person", "contact", "company line", "division line", "division's own", "unknown", "withheld")


@pytest.mark.parametrize("kind", KINDS)
def test_freepbx_and_asterisk_show_the_caller(running, holders, kind):
    holder = holders[kind]
    for form in forms(holder):
        assert consumers.freepbx(running.origin, f"t/{TOKEN}", form) == holder.name, form
        assert consumers.asterisk_hash_name(running.base, form) == holder.name, form


@pytest.mark.parametrize("kind", KINDS)
def test_superfecta_shows_the_ascii_name_with_the_documented_url(running, holders, kind):
    holder = holders[kind]
    url = f"{running.base}/cid?number=$thenumber&ascii=1"  # as `corpdir gateway --help` says to set it
    for form in forms(holder):
        shown = consumers.superfecta(url, form)
        if holder.name is None:
            assert shown is None, form
            continue
        assert shown and shown.isascii() and "?" not in shown, (form, shown)
        if holder.ascii:
            assert shown == holder.ascii[:60], form
        else:
            answer = running.get(f"{running.base}/cid.json?number={digits(holder.number)}&ascii=1").json()
            assert shown == answer["callerName"][:60], form  # Superfecta keeps 60 bytes of a long path


def test_superfecta_garbles_japanese_without_ascii_which_is_why_it_is_required(running, holders):
    holder = holders["company line"]
    shown = consumers.superfecta(f"{running.base}/cid?number=$thenumber", digits(holder.number))
    assert shown != holder.name  # stripAccents works on bytes: every kanji is broken


@pytest.mark.parametrize("kind", KINDS)
def test_freeswitch_shows_the_caller_or_unknown(running, holders, kind):
    holder = holders[kind]
    for form in forms(holder):
        shown = consumers.freeswitch(f"{running.base}/cid?number=${{caller_id_number}}", form)
        assert shown == (holder.name or "UNKNOWN"), form


@pytest.mark.parametrize("kind", KINDS)
def test_3cx_shows_the_caller_with_a_token_and_with_basic_auth(running, holders, kind):
    holder = holders[kind]
    by_token = running.get(f"{running.base}/3cx.xml").content
    by_basic = running.get(f"{running.origin}/3cx.xml", auth=(USER, PASSWORD)).content
    assert ET.fromstring(by_basic).find("Authentication").get("Type") == "Basic"
    assert PASSWORD not in by_basic.decode()  # the administrator types it into 3CX
    for form in forms(holder):
        for template, typed in ((by_token, {}), (by_basic, {"GatewayPassword": PASSWORD})):
            outputs = consumers.threecx(template, typed, form)
            assert consumers.threecx_shown(outputs) == holder.name, form
            if outputs and kind in ("company line", "division line"):
                assert outputs["EntityId"].startswith("company:") and outputs["FirstName"] == ""  # one entity, no one's name


@pytest.mark.parametrize("kind", ("person", "contact", "company line", "division line", "division's own"))
def test_yealink_incoming_lookup_shows_the_directory_name(running, holders, kind):
    holder = holders[kind]
    for form in forms(holder)[:4]:  # the forms a phone receives: as the PBX sent it
        shown = consumers.yealink_incoming(running.base, form)
        assert shown is not None and shown.startswith(holder.name), form
        if kind not in ("person", "contact"):
            assert shown == holder.name, form  # the line, never one of the contacts who share it


@pytest.mark.parametrize("path", ("/cisco/directory.xml", "/snom/directory.xml", "/yealink/directory.xml",
                                  "/grandstream/phonebook.xml"))
def test_each_phone_reads_its_directory_as_documented_and_finds_each_holder(running, holders, path):
    root = consumers.phone_document(running.get(f"{running.base}{path}").content)
    for kind in ("person", "contact"):
        holder = holders[kind]
        found = consumers.phone_document(running.get(f"{running.base}{path}",
                                                     params={"q": holder.name}).content) if "grand" not in path else root
        texts = [" ".join(e.itertext()) for e in found]
        assert any(holder.name.split()[0] in t and digits(holder.number) in digits(t) for t in texts), (kind, path)


def test_freepbx_basic_auth_breaks_on_a_password_with_a_space_and_the_gateway_says_so(running, holders):
    """FreePBX PHP-urlencodes the password into the URL ('+' for a space), curl sends the
    '+' as it is: 401, no name. `corpdir gateway` warns about such a password at start."""
    number = digits(holders["person"].number)
    url = consumers.freepbx_url(running.origin, "cid", number, USER, PASSWORD)
    assert " " in PASSWORD and consumers.asterisk_curl(url) == ""
    assert freepbx_breaks(PASSWORD) and not freepbx_breaks(PASSWORD.replace(" ", "-"))


@pytest.mark.parametrize("kind", ("person", "contact", "company line", "division line", "division's own"))
def test_kv_and_json_name_the_company_and_the_division_apart(running, holders, kind):
    """``company`` is a company (a contact's, a shared line's; none for our own people and
    divisions), never a division path; the path is ``division``."""
    holder = holders[kind]
    kv = consumers.asterisk_hashcompat(f"{running.base}/cid.kv?number={digits(holder.number)}")
    body = running.get(f"{running.base}/cid.json?number={digits(holder.number)}").json()
    assert kv["company"] == body["company"] and kv["division"] == body["division"]
    if kind in ("person", "division's own"):
        assert body["company"] == "" and body["division"]
    else:
        assert body["company"] and " › " not in body["company"]
        if kind != "contact":
            assert holder.name.startswith(body["company"])
    if kind == "division's own":
        assert body["division"] == holder.name
