"""`corpdir export` against the reference server in-process: records go to the file page by
page, the cache is never written by an export, a synced cache answers without the service,
a failed export leaves no file, and CSV cells are safe to open in a spreadsheet."""

from __future__ import annotations

import argparse
import csv
import io
import stat

import httpx
import pytest

from corpdir.commands.export import configure, run_export
from corpdir.service.export import USER_CSV, csv_cell
from service_fixtures import demo_tenant, make_server, make_service
from corpdir.service.backend import backend_of


class PageWatch(httpx.ASGITransport):
    """Notes, at each list request, how many bytes of the export's file exist so far; can
    fail the n-th list request with a 500."""

    def __init__(self, app, part=None, fail_at=None):
        super().__init__(app=app)
        self.part, self.fail_at = part, fail_at
        self.lists: list[int] = []

    async def handle_async_request(self, request):
        if request.method == "GET" and request.url.path.endswith(("/users", "/contacts")):
            self.lists.append(self.part.stat().st_size if self.part is not None and self.part.exists() else -1)
            if len(self.lists) == self.fail_at:
                return httpx.Response(500, json={"error": {"status": "INTERNAL", "message": "boom"}}, request=request)
        return await super().handle_async_request(request)


def args(*argv):
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(list(argv))


@pytest.fixture
def server():
    return make_server()


async def test_each_page_is_written_before_the_next_is_asked(tmp_path):
    server = make_server(demo_tenant(250))  # 250 users: 3 pages of 100
    path = tmp_path / "people.csv"
    watch = PageWatch(server, part=tmp_path / ".people.csv.part")
    service = make_service(server, transport=watch)
    try:
        err = io.StringIO()
        assert await run_export(service, args("users", "-o", str(path)), io.StringIO(), err) == 0, err.getvalue()
    finally:
        await service.close()
    header = len(",".join(USER_CSV)) + 1
    assert len(watch.lists) == 3 and header < watch.lists[1] < watch.lists[2]  # each page in the file before the next
    rows = list(csv.DictReader(path.open(encoding="utf-8-sig")))
    assert len(rows) == len({r["userId"] for r in rows}) == 250
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # personal data
    assert "250 users written to" in err.getvalue() and "(from the service)" in err.getvalue()


async def test_an_export_from_the_service_leaves_the_cache_as_it_was(server):
    service = make_service(server, api_key="demo-admin")
    try:
        for kind in ("users", "contacts"):
            out = io.StringIO()
            assert await run_export(service, args(kind, "--search", "a"), out, io.StringIO()) == 0
            assert out.getvalue().count("\n") > 1
        assert backend_of(service).store.count_users() == 0 and backend_of(service).store.count_contacts() == 0
    finally:
        await service.close()


async def test_a_synced_cache_answers_without_asking_the_service(server, tmp_path):
    watch = PageWatch(server)
    service = make_service(server, transport=watch)
    try:
        await service.sync.run()
        asked = len(watch.lists)
        out, err = io.StringIO(), io.StringIO()
        division = (await service.people.window(None, limit=1))[0].divisions[0].divisionId
        assert await run_export(service, args("users", "--division", str(division)), out, err) == 0
        rows = list(csv.DictReader(io.StringIO(out.getvalue())))
        assert len(rows) == await service.people.count(division) > 0
        assert await run_export(service, args("users", "-o", str(tmp_path / "all.csv")), io.StringIO(), err) == 0
        assert "60 users written to" in err.getvalue() and "(from the cache)" in err.getvalue()
        assert len(watch.lists) == asked  # the service was not asked
        # a filter the cache cannot apply goes to the service
        assert await run_export(service, args("users", "--type", "FACILITY"), io.StringIO(), err) == 0
        assert len(watch.lists) > asked
    finally:
        await service.close()


async def test_a_failed_export_leaves_no_file_behind(tmp_path):
    server = make_server(demo_tenant(250))
    path = tmp_path / "people.vcf"
    service = make_service(server, transport=PageWatch(server, fail_at=2))
    try:
        err = io.StringIO()
        assert await run_export(service, args("users", "--format", "vcard", "-o", str(path)), io.StringIO(), err) == 2
    finally:
        await service.close()
    assert "nothing was exported" in err.getvalue()
    assert list(tmp_path.iterdir()) == []  # neither the file nor a part of it


@pytest.mark.parametrize("fmt", ["csv", "vcard"])
async def test_a_service_that_fails_at_once_leaves_standard_output_empty(fmt):
    """No CSV header before the failure: a script would take it for an empty directory."""
    server = make_server(demo_tenant(250))
    service = make_service(server, transport=PageWatch(server, fail_at=1))
    try:
        out, err = io.StringIO(), io.StringIO()
        assert await run_export(service, args("users", "--format", fmt), out, err) == 2
    finally:
        await service.close()
    assert out.getvalue() == "" and "nothing was exported" in err.getvalue()


@pytest.mark.parametrize("flag", ["--login-id", "--employee-num", "--email", "--search", "--phone", "--name", "--company"])
def test_an_empty_filter_is_a_usage_error_not_everyone(flag, capsys):
    """`--login-id "$ID"` with $ID unset filtered nothing: the export held every person."""
    with pytest.raises(SystemExit) as exited:
        args("users", f"{flag}= ")
    said = capsys.readouterr().err
    assert exited.value.code == 2 and f"argument {flag}: is empty: an empty filter would select every record" in said
    assert args("users", "--search", "山田 太郎").search == ["山田", "太郎"]


async def test_from_a_cache_never_synced_is_said_not_an_empty_file(server):
    service = make_service(server)
    try:
        out, err = io.StringIO(), io.StringIO()
        assert await run_export(service, args("users", "--from", "cache"), out, err) == 2
    finally:
        await service.close()
    assert out.getvalue() == ""
    assert "holds no users yet: run `corpdir sync` first (or leave out --from cache); nothing was exported" in err.getvalue()


def test_ldif_of_a_service_never_synced_is_said_and_writes_no_file(tmp_path):
    """It wrote the base entry alone and said "1 entries written", status 0."""
    import subprocess
    import sys

    target = tmp_path / "phonebook.ldif"
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "export", "--format", "ldif", "-o", str(target),
                           "--base-url", "http://127.0.0.1:9/v1"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and not target.exists()
    assert "holds no users or contacts yet: run `corpdir sync` first; nothing was exported" in done.stderr, done.stderr


async def test_a_failure_after_the_first_page_says_the_output_is_incomplete():
    server = make_server(demo_tenant(250))  # 3 pages of 100: the second fails
    service = make_service(server, transport=PageWatch(server, fail_at=2))
    try:
        out, err = io.StringIO(), io.StringIO()
        assert await run_export(service, args("users"), out, err) == 2
    finally:
        await service.close()
    assert len(list(csv.DictReader(io.StringIO(out.getvalue())))) == 100
    assert "the output is incomplete: it holds the first 100 users only" in err.getvalue()
    assert "nothing was exported" not in err.getvalue()


@pytest.mark.parametrize("value, cell", [
    ("=HYPERLINK(\"http://evil.example\",\"x\")", "'=HYPERLINK(\"http://evil.example\",\"x\")"),
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"),
    ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
    ("\t=1", "'\ufffd=1"),
    ("\r=1", "'\ufffd=1"),
    ("+1+1+1+1+1", "'+1+1+1+1+1"),  # digits and signs, but no phone number
    ("+81 3-1234-5678", "'+81 3-1234-5678"),  # a spreadsheet computes 81 - 3 - 1234 - 5678
    ("+81-90-1111-2222", "'+81-90-1111-2222"),
    ("03-1234-5678", "'03-1234-5678"),
    ("08059306682", "'08059306682"),  # read as the number 8059306682
    ("060-0001", "'060-0001"),  # a zip code loses its zero as a phone number does
    ("1234", "1234"),  # an extension: a number is what it is
    ("0a-b", "0a-b"),  # no number: a spreadsheet keeps it as text
    ("山田 = 太郎", "山田 = 太郎"),
])
def test_csv_cells_a_spreadsheet_would_run_or_renumber_get_a_leading_quote(value, cell):
    assert csv_cell(value) == cell


async def test_exported_formulas_read_back_quoted(server, tmp_path):
    service = make_service(server, api_key="demo-admin")
    try:
        user = await service.people.create({"loginId": "formula", "fullname": "=1+2 様", "position": "@SUM(A1)",
                                          "phoneNum": "+81-3-1234-5678", "comment": "-x\nsecond line"})
        out = io.StringIO()
        assert await run_export(service, args("users", "--from", "service"), out, io.StringIO()) == 0
    finally:
        await service.close()
    row = next(r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["userId"] == str(user.userId))
    assert (row["fullname"], row["position"], row["phoneNum"]) == ("'=1+2 様", "'@SUM(A1)", "'+81-3-1234-5678")
    assert row["comment"] == "'-x\nsecond line"  # a file keeps the newline, quoted


async def test_a_csv_file_opens_in_excel_on_japanese_windows(server, tmp_path):
    """UTF-8 with a byte order mark by default (without it Excel reads Shift_JIS); --encoding
    utf-8 leaves it out; standard output and vCard files never have one."""
    service = make_service(server, api_key="demo-admin")
    try:
        made = {}
        for name, extra in (("default.csv", ()), ("plain.csv", ("--encoding", "utf-8")),
                            ("cards.vcf", ("--format", "vcard"))):
            made[name] = tmp_path / name
            assert await run_export(service, args("users", "-o", str(made[name]), *extra), io.StringIO(),
                                    io.StringIO()) == 0
        out = io.StringIO()
        assert await run_export(service, args("users"), out, io.StringIO()) == 0
    finally:
        await service.close()
    assert made["default.csv"].read_bytes().startswith(b"\xef\xbb\xbfuserId,")
    assert made["plain.csv"].read_bytes().startswith(b"userId,")
    assert made["cards.vcf"].read_bytes().startswith(b"BEGIN:VCARD")
    assert out.getvalue().startswith("userId,")
    names = {row["fullname"] for row in csv.DictReader(made["default.csv"].open(encoding="utf-8-sig"))}
    assert any("\u3040" <= ch <= "\u9fff" for name in names for ch in name)  # the Japanese names, readable


async def test_contacts_carry_their_addresses_and_company_url(server, tmp_path):
    import vobject

    service = make_service(server, api_key="demo-admin")
    try:
        contacts = {c.contactId: c async for c in backend_of(service).client.iter_contacts(directory="SHARED")}
        for fmt, name in (("csv", "c.csv"), ("vcard", "c.vcf")):
            assert await run_export(service, args("contacts", "--directory", "SHARED", "--format", fmt, "-o",
                                                  str(tmp_path / name)), io.StringIO(), io.StringIO()) == 0
    finally:
        await service.close()
    located = [c for c in contacts.values() if c.headquartersLocation and c.headquartersLocation.address1]
    assert located, "the demo's shared contacts have head-office addresses"
    rows = {int(r["contactId"]): r for r in csv.DictReader((tmp_path / "c.csv").open(encoding="utf-8-sig"))}
    cards = {int(c.uid.value.rsplit(":", 1)[1]): c
             for c in vobject.readComponents((tmp_path / "c.vcf").read_text(encoding="utf-8"))}
    for contact in located:
        hq, row, card = contact.headquartersLocation, rows[contact.contactId], cards[contact.contactId]
        zip_code = hq.zipCode or ""
        assert row["headOfficeZipCode"] == (f"'{zip_code}" if zip_code.startswith("0") else zip_code)  # a zero kept
        assert row["headOfficeAddress"].startswith(hq.address1)
        assert row["companyUrl"] == (contact.companyUrl or "")
        addresses = {(a.value.code, a.value.street) for a in card.contents.get("adr", [])}
        assert ((hq.zipCode or ""), " ".join(v for v in (hq.address1, hq.address2) if v)) in addresses
        if contact.officeLocation and contact.officeLocation.address1:
            assert rows[contact.contactId]["officeAddress"].startswith(contact.officeLocation.address1)
        urls = {u.value for u in card.contents.get("url", [])}
        assert contact.companyUrl is None or contact.companyUrl in urls


@pytest.mark.parametrize("fmt", ["csv", "vcard"])  # LDIF opens its file by the same open_private
async def test_an_export_into_a_pipe_writes_into_it_and_leaves_it_a_pipe(server, tmp_path, fmt):
    """`-o` naming a named pipe (or /dev/null) is written in place: renaming a finished file
    over it, as a regular file is, would replace the pipe (or the device) with a file."""
    import os
    import threading

    pipe = tmp_path / "out"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    service = make_service(server)
    try:
        await service.sync.run()
        code = await run_export(service, args("users", "--format", fmt, "-o", str(pipe)), io.StringIO(), io.StringIO())
    finally:
        await service.close()
        reader.join(30)
    assert code == 0 and stat.S_ISFIFO(pipe.stat().st_mode)
    assert received and len(received[0]) > 1000 and sorted(p.name for p in tmp_path.iterdir()) == ["out"]


WIDE = str.maketrans("0123456789", "０１２３４５６７８９")
WRITTEN = {"full width": lambda n: n.translate(WIDE).replace("-", "－"), "long-vowel mark": lambda n: n.translate(WIDE).replace("-", "ー"),
           "spaces and parentheses": lambda n: "(" + n.replace("-", ") ", 1).replace("-", " ")}


@pytest.mark.parametrize("written", list(WRITTEN))
async def test_phone_takes_a_number_however_it_is_written(server, written):
    """As `corpdir lookup` does: full width, a Japanese hyphen, spaces and parentheses."""
    service = make_service(server)
    try:
        await service.sync.run()
        person = next(u for u in await service.people.window(None, limit=200) if u.phoneNum)
        out, err = io.StringIO(), io.StringIO()
        typed = WRITTEN[written](person.phoneNum)
        assert await run_export(service, args("users", "--phone", typed), out, err) == 0, err.getvalue()
        assert [row["userId"] for row in csv.DictReader(io.StringIO(out.getvalue()))] == [str(person.userId)]
    finally:
        await service.close()


@pytest.mark.parametrize(("kind", "flags", "named"), [
    ("users", ["--phone", "0312345678"], "--phone"), ("users", ["--type", "FACILITY", "--search", "山田"], "--search, --type"),
    ("users", ["--division", "1", "--division", "2"], "--division"), ("contacts", ["--company", "テスト"], "--company"),
])
async def test_from_cache_refuses_a_filter_the_cache_cannot_apply(server, tmp_path, kind, flags, named):
    """It exported every record, the filter silently left out (1,867 contacts for one company)."""
    service = make_service(server)
    try:
        await service.sync.run()
        err = io.StringIO()
        path = tmp_path / "out.csv"
        assert await run_export(service, args(kind, *flags, "--from", "cache", "-o", str(path)), io.StringIO(), err) == 2
        assert err.getvalue().startswith(f"{named}: the cache cannot apply") and not path.exists()
    finally:
        await service.close()


async def test_limit_caps_the_records_from_either_source(server):
    service = make_service(server)
    try:
        await service.sync.run()
        for source in ("cache", "service"):
            out = io.StringIO()
            assert await run_export(service, args("users", "--limit", "3", "--from", source), out, io.StringIO()) == 0
            assert len(list(csv.DictReader(io.StringIO(out.getvalue())))) == 3
    finally:
        await service.close()
