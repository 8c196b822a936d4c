"""Whose number is this? The same answer on every surface.

One set of numbers from the small demo tenant -- a person's phone, extension and mobile,
the phone again as +81, full width, %2B81, `sip:...;user=phone`, `tel:` and behind an
outside-line '0'; a contact's own number; a company's main line on many contacts; a
division's number written on contacts; a division's own number; an unknown number; a
withheld caller -- asked of `corpdir lookup` (text and JSON, real processes, from a synced
cache and from the service alone), the Lookup screen, the pop-up's caller, the gateway's
`/cid`, `/cid.kv` and `/cid.json` over HTTP, LDAP through a real slapd, and the number a
call record keeps. Every one names the same who, by the same division path.

The expected answers come from the tenant's own records (the division path walked up from
the service's divisions), not from the code under test.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from urllib.parse import quote, unquote

import pytest

from corpdir.phone import digits
from corpdir.service.backend import backend_of
from corpdir.service.calls import CallDesk
from gateway.conftest import RunningGateway
from gateway.slapd import BASE_DN, LDAPSEARCH, ROOT_DN, ROOT_PW, SLAPD, Slapd
from service_fixtures import LiveServer, demo_tenant, make_server, make_service, service_division_paths

KEY = "demo-reception"
FULL_WIDTH = str.maketrans("0123456789-", "０１２３４５６７８９－")


def _paths() -> dict[int, str]:
    async def read() -> dict[int, str]:
        service = make_service(make_server())
        try:
            return await service_division_paths(backend_of(service).client)
        finally:
            await service.close()

    return asyncio.run(read())


def build_table() -> tuple[list[tuple[str, str, str, str]], dict[str, list[str]]]:
    """[(label, number as sent, expected who, expected division path)], and the spellings
    of each holder's number that must be one number (label -> labels)."""
    tenant, paths = demo_tenant(), _paths()

    async def oracle(numbers: list[str]) -> list[dict]:
        service = make_service(make_server())
        try:
            return [(await backend_of(service).client.identify_numbers([n])).items[0].model_dump(mode="json") for n in numbers]
        finally:
            await service.close()

    users = [u for u in tenant.users if len(u.get("divisionIds") or []) == 1 and (u.get("phoneNum") or "").startswith("03-")
             and u.get("extensionNum") and (u.get("companyMobileNum") or u.get("mobileNum"))]
    contacts = [c for c in tenant.contacts if c.get("phoneNum") and (c.get("folderId") or {}).get("directory") == "SHARED"]
    by_company: dict[str, list[dict]] = {}
    for c in tenant.contacts:
        if c.get("companyDelegatedPhoneNum"):
            by_company.setdefault(c["companyDelegatedPhoneNum"], []).append(c)
    company_line = max(by_company, key=lambda n: len(by_company[n]))
    delegated = [c for c in tenant.contacts if c.get("divisionDelegatedPhoneNum") and c.get("divisionName")]
    # a deep division: its path says more than its name (many divisions are called 1課)
    own = sorted((d for d in tenant.divisions if d.get("divisionPhoneNum")), key=lambda d: -paths[d["divisionId"]].count("›"))
    candidates = users[:10] + contacts[:10] + delegated[:10] + own[:10]
    answers = asyncio.run(oracle([u["phoneNum"] for u in users[:10]] + [c["phoneNum"] for c in contacts[:10]]
                                 + [c["divisionDelegatedPhoneNum"] for c in delegated[:10]]
                                 + [d["divisionPhoneNum"] for d in own[:10]]))
    said = dict(zip(map(id, candidates), answers))
    user = next(u for u in users[:10] if said[id(u)].get("userId") == u["userId"])
    contact = next(c for c in contacts[:10] if said[id(c)].get("contactId") == c["contactId"])
    by_division = next(c for c in delegated[:10] if said[id(c)].get("phoneNumContactType") == "SHARED_NUMBER"
                       and said[id(c)].get("displayName") == c["divisionName"])
    division = next(d for d in own[:10] if said[id(d)].get("displayName") == d["divisionName"]
                    and not said[id(d)].get("contactId"))
    company = by_company[company_line][0]

    person, path = user["fullname"], paths[user["divisionIds"][0]]
    phone = user["phoneNum"]
    mobile = user.get("companyMobileNum") or user["mobileNum"]
    e164 = "+81" + digits(phone)[1:]
    table = [
        ("phone", phone, person, path),
        ("extension", user["extensionNum"], person, path),
        ("mobile", mobile, person, path),
        ("+81", e164, person, path),
        ("full width", phone.translate(FULL_WIDTH), person, path),
        ("%2B81", quote(e164, safe=""), person, path),
        ("sip", f"sip:{digits(phone)}@pbx.example;user=phone", person, path),
        ("tel", f"tel:{e164[:3]}-{e164[3:]}", person, path),
        ("outside line", "0" + digits(phone), person, path),
        ("contact", contact["phoneNum"], contact["fullname"], contact.get("divisionName") or ""),
        ("company line", company_line, company["companyName"], ""),
        ("division-delegated", by_division["divisionDelegatedPhoneNum"],
         f"{by_division['companyName']} {by_division['divisionName']}", by_division["divisionName"]),
        ("division's own", division["divisionPhoneNum"], paths[division["divisionId"]], paths[division["divisionId"]]),
        ("unknown", "03-0000-0009", "", ""),
        ("withheld", "anonymous", "withheld", ""),
    ]
    assert len(by_company[company_line]) > 2, "the demo's company line is on many contacts"
    return table, {"phone": ["extension", "mobile", "+81", "full width", "%2B81", "sip", "tel", "outside line"]}


TABLE, SAME_NUMBER = build_table()
NUMBERS = [number for _, number, _, _ in TABLE]
FOUND = [(label, number, who, path) for label, number, who, path in TABLE if who and who != "withheld"]


@pytest.fixture(scope="module")
def live():
    server = LiveServer(make_server())
    yield server
    server.stop()


def lookup(live, cache_dir, *args: str) -> list[str]:
    env = {**os.environ, "CORPDIR_BASE_URL": live.base_url, "CORPDIR_API_KEY": KEY, "CORPDIR_CACHE_DIR": str(cache_dir)}
    result = subprocess.run([sys.executable, "-m", "corpdir.cli", *args], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("cache", ["synced cache", "service alone"])
def test_corpdir_lookup_text_and_json_name_the_same_who_by_the_same_path(live, tmp_path, cache):
    if cache == "synced cache":
        lookup(live, tmp_path, "sync", "--quiet")
    answers = [json.loads(line) for line in lookup(live, tmp_path, "lookup", "--json", *NUMBERS)]
    lines = lookup(live, tmp_path / "text", "lookup", *NUMBERS) if cache == "service alone" else \
        lookup(live, tmp_path, "lookup", *NUMBERS)
    for (label, _, who, path), answer, line in zip(TABLE, answers, lines):
        assert (answer["who"], answer["divisionPath"] if who != "withheld" else "") == (who, path), label
        assert line.split("\t")[1] == (who or "-"), label
        # the service is asked about every number the cache lacks, found there or not; withheld asks nobody
        assert answer["source"] == ("cache" if cache == "synced cache" and answer["found"] else
                                    "none" if answer["kind"] == "withheld" else "service"), label
        if who and who != "withheld":
            assert answer["found"], label
    assert answers[-1]["kind"] == "withheld" and answers[-2]["kind"] == "unknown"
    company = next(a for (label, *_), a in zip(TABLE, answers) if label == "company line")
    if cache == "synced cache":  # the cache knows how many share it; N1 names the company alone
        assert company["kind"] == "company" and company["holders"] > 2


def test_the_pop_up_caller_and_the_call_record_name_the_same_who(tmp_path):
    async def run() -> None:
        service = make_service()
        await service.sync.run()
        desk = CallDesk(service)
        try:
            for label, number, who, path in TABLE:
                caller = await desk.caller(number, 0)
                assert caller.name == who, label
                assert caller.withheld == (label == "withheld"), label
                if label in [*SAME_NUMBER["phone"], "phone"]:
                    assert caller.affiliation == path, label
                if label == "company line":  # the card says "shared by N" under the company
                    assert caller.known and caller.identity.shared and caller.record is None
            kept = {}
            for label, number, who, _ in TABLE:
                if label == "unknown":
                    continue
                record = await desk.record_incoming(number, True, 10, datetime.now(timezone.utc))
                kept[label] = record.fromNum or ""
                found = await service.lookup([record.fromNum]) if record.fromNum else []
                assert (found[0].who if found else "withheld") == who, label
            phone_spellings = {kept[label] for label in ["phone", "+81", "full width", "%2B81", "sip", "tel", "outside line"]}
            assert phone_spellings == {digits(TABLE[0][1])}  # one caller, one number in the record
            assert kept["withheld"] == ""
        finally:
            await service.close()

    asyncio.run(run())


def test_the_lookup_screen_names_the_same_who(tmp_path):
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp
    from corpdir.tui.screens.lookup import LookupScreen
    from corpdir.tui.widgets.virtual_list import VirtualList
    from tui_helpers import wait_for

    async def run() -> None:
        service = make_service()
        await service.sync.run()
        app = CorpdirApp(service, state=State(), sync_on_start=False)
        try:
            async with app.run_test(size=(150, 40)) as pilot:
                await pilot.press("f4")
                assert await wait_for(pilot, lambda: isinstance(app.screen, LookupScreen))
                app.screen.run_lookup(NUMBERS)
                results = app.screen.query_one("#results", VirtualList)
                assert await wait_for(pilot, lambda: results.row_count == len(TABLE), tries=500)
                rows = [results.row(i) for i in range(results.row_count)]
                for (label, _, who, path), row in zip(TABLE, rows):
                    assert row.name == (who or "not found"), label
                    if label in ("phone", "division's own"):
                        assert row.organisation() == path, label
        finally:
            await service.close()

    asyncio.run(run())


def test_the_gateway_cid_kv_and_json_name_the_same_who(tmp_path):
    gateway = RunningGateway(tmp_path)
    try:
        for label, number, who, path in TABLE:
            sent = quote(number, safe="")  # '%2B81...' arrives as sent: a PBX that encoded the '+' once too often
            text = gateway.get(f"{gateway.base}/cid?number={sent}")
            kv = gateway.get(f"{gateway.base}/cid.kv?number={sent}")
            body = gateway.get(f"{gateway.base}/cid.json?number={sent}").json()
            fields = dict(pair.split("=", 1) for pair in kv.text.split("&")) if kv.text else {}
            found = bool(who) and who != "withheld"
            assert (text.status_code, text.text) == ((200, who) if found else (404, "")), label
            assert unquote(fields.get("name", "")) == (who if found else ""), label
            assert (body["found"], body.get("callerName", "")) == (found, who if found else ""), label
            assert body["withheld"] == (label == "withheld"), label
            if found:
                assert unquote(fields["company"]) == body["company"], label  # kv and json agree
                assert unquote(fields["division"]) == body["division"] == path, label
    finally:
        gateway.stop()


@pytest.mark.skipif(not (SLAPD and LDAPSEARCH and shutil.which("ldapadd")), reason="needs OpenLDAP's slapd and ldap-utils")
def test_ldap_finds_the_same_who_by_the_number_a_phone_received(live, tmp_path, monkeypatch, capsys):
    from corpdir import cli

    monkeypatch.setenv("CORPDIR_BASE_URL", live.base_url)
    monkeypatch.setenv("CORPDIR_API_KEY", KEY)
    monkeypatch.setenv("CORPDIR_CACHE_DIR", str(tmp_path / "cache"))
    slapd = Slapd(tmp_path / "slapd")
    secret = tmp_path / "bind-password"
    secret.write_text(ROOT_PW + "\n")
    try:
        assert cli.main(["ldap-sync", "--url", slapd.url, "--base-dn", BASE_DN, "--bind-dn", ROOT_DN,
                         "--password-file", str(secret), "--sync"]) == 0, capsys.readouterr().out
        for label, number, who, path in FOUND:
            if label not in ("phone", "extension", "mobile", "+81", "contact", "company line", "division-delegated",
                             "division's own"):
                continue  # a phone searches LDAP by the digits it received, not by a URI
            wanted = number if number.startswith("+") else digits(number)
            found = slapd.search(f"(|(telephoneNumber={wanted})(mobile={wanted}))", "displayName", "ou")
            assert [a["displayName"][0] for a in found.values()] == [who], label
            assert [a.get("ou", [""])[0] for a in found.values()] == [path], label
    finally:
        slapd.stop()
