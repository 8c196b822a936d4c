"""`corpdir bulk` and `corpdir export` against the reference server in-process: requests
counted at the transport, rows checked before anything is sent, L1's 5-minute rule
explained, vCard parsed back by vobject, CSV read back."""

import argparse
import csv
import io
import json

import httpx
import pytest

from corpdir.commands.bulk import PARTLY_TAKEN, run_bulk
from corpdir.commands.export import configure as export_configure, run_export
from service_fixtures import make_server, make_service
from corpdir.service.backend import backend_of


class Recorder(httpx.ASGITransport):
    def __init__(self, app):
        super().__init__(app=app)
        self.requests = []

    async def handle_async_request(self, request):
        self.requests.append((request.method, request.url.path, await request.aread()))
        return await super().handle_async_request(request)

    def writes(self, path=None):
        return [(m, p, b) for m, p, b in self.requests if m != "GET" and (path is None or p.endswith(path))]


class Clock:
    def __init__(self, now=1_800_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def recorder(clock):
    return Recorder(make_server(clock=clock))


@pytest.fixture
async def admin(recorder):
    svc = make_service(recorder.app, api_key="demo-admin", transport=recorder)
    yield svc
    await svc.close()


async def _login_ids(svc):
    return [u.loginId async for u in backend_of(svc).client.iter_users(select=["userId", "loginId"])]


async def test_25000_destinations_go_in_3_requests(admin, recorder, tmp_path):
    logins = await _login_ids(admin)
    path = tmp_path / "dest.csv"
    rows = ["loginId,destinationId,destinationName"] + [
        f"{logins[i % len(logins)]},{i + 1},会議室 {i}" for i in range(25_000)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, err) == 0, err.getvalue()
    sent = recorder.writes("/destinations")
    assert len(sent) == 3
    assert [len(json.loads(b)["destinations"]) for _, _, b in sent] == [10_000, 10_000, 5_000]
    assert "Sent 25000 destinations in 3 requests" in out.getvalue()


async def test_a_bad_row_is_reported_by_line_and_nothing_is_sent(admin, recorder, tmp_path):
    logins = await _login_ids(admin)
    lines = ["loginId,destinationId,destinationName"] + [f"{logins[0]},{i},room" for i in range(1, 30)]
    lines[16] = f"{logins[0]},seventeen,room"  # line 17 of the file
    path = tmp_path / "dest.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, err) == 1
    assert "line 17: destinationId: must be a whole number (got 'seventeen')" in err.getvalue()
    assert "line 16" not in err.getvalue() and "line 18" not in err.getvalue()
    assert "nothing was sent" in err.getvalue()
    assert recorder.writes() == []


async def test_every_bad_spot_row_is_listed(admin, recorder, tmp_path):
    path = tmp_path / "spots.csv"
    path.write_text("bleId,spotId\ntag-1,A\nbad tag!,B\ntag-3,\n", encoding="utf-8")
    err = io.StringIO()
    assert await run_bulk(admin, "spots", str(path), io.StringIO(), err) == 1
    assert "line 3: bleId:" in err.getvalue()
    assert recorder.writes() == []


async def test_spots_inside_the_5_minute_window_say_when_to_retry(admin, recorder, clock, tmp_path):
    tags = [u.bleId async for u in backend_of(admin).client.iter_users(select=["userId", "bleId"]) if u.bleId][:2]
    path = tmp_path / "spots.csv"
    path.write_text(f"bleId,spotId\n{tags[0]},lobby\n{tags[1]},room-3\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "spots", str(path), out, err) == 0, err.getvalue()
    assert "Sent 2 spots" in out.getvalue()
    clock.now += 100  # 100 s later: 200 s of the window left
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "spots", str(path), out, err) == 3
    assert "one spot list per 5 minutes" in err.getvalue()
    assert "Try again in 3 min 20 s" in err.getvalue()
    clock.now += 170  # 30 s left: short enough to wait out, but the user is told, not kept waiting
    sent = len(recorder.writes())
    err = io.StringIO()
    assert await run_bulk(admin, "spots", str(path), io.StringIO(), err) == 3
    assert "Nothing was registered. Try again in 30 s" in err.getvalue()
    assert len(recorder.writes()) == sent + 1  # sent once, not resent
    clock.now += 30
    assert await run_bulk(admin, "spots", str(path), io.StringIO(), io.StringIO()) == 0


async def test_a_403_names_the_missing_right(recorder, tmp_path):
    svc = make_service(recorder.app, api_key="demo-reception", transport=recorder)
    try:
        path = tmp_path / "dest.csv"
        path.write_text("loginId,destinationId,destinationName\nreception,1,受付\n", encoding="utf-8")
        err = io.StringIO()
        assert await run_bulk(svc, "destinations", str(path), io.StringIO(), err) == 2
        assert "It needs user management." in err.getvalue()
    finally:
        await svc.close()


def _args(*argv):
    parser = argparse.ArgumentParser()
    export_configure(parser)
    return parser.parse_args(list(argv))


async def test_vcard_export_parses_back_with_every_phone_and_email(admin):
    import vobject

    from corpdir.spec.user import USER_PHONE_FIELDS

    created = await admin.people.create({"loginId": "cjk.vcard", "fullname": "王 伟", "fullnameKana": "ワン ウェイ",
                                       "extensionNum": "7001", "phoneNum": "+81 3-1234-5678".replace(" ", ""),
                                       "mobileNum": "090-1111-2222", "email1": "wang@example.jp",
                                       "email2": "wei;x@example.jp"})
    out = io.StringIO()
    assert await run_export(admin, _args("users", "--format", "vcard"), out, io.StringIO()) == 0
    users = {u.userId: u async for u in backend_of(admin).client.iter_users()}
    cards = list(vobject.readComponents(out.getvalue()))
    assert len(cards) == len(users)
    by_uid = {c.uid.value: c for c in cards}
    for user in users.values():
        card = by_uid[f"urn:corpdir:user:{user.userId}"]
        assert card.version.value == "4.0"
        assert card.fn.value == user.fullname
        phones = sorted(getattr(user, f) for f in USER_PHONE_FIELDS if getattr(user, f))
        assert sorted(t.value for t in card.contents.get("tel", [])) == phones
        emails = sorted(e for e in (user.email1, user.email2) if e)
        assert sorted(e.value for e in card.contents.get("email", [])) == emails
    mine = by_uid[f"urn:corpdir:user:{created.userId}"]
    assert mine.fn.value == "王 伟" and mine.n.value.family == "王"
    # the reading where iOS and Android importers look for it (docs/export.md), not X-PHONETIC-NAME
    assert (mine.x_phonetic_last_name.value, mine.x_phonetic_first_name.value) == ("ワン", "ウェイ")
    assert "x-phonetic-name" not in mine.contents


async def test_csv_export_round_trips_with_filters(admin):
    from corpdir.service.export import CONTACT_CSV

    out = io.StringIO()
    assert await run_export(admin, _args("contacts", "--directory", "SHARED"), out, io.StringIO()) == 0
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    contacts = {c.contactId: c async for c in backend_of(admin).client.iter_contacts(directory="SHARED")}
    assert len(rows) == len(contacts) > 0
    for row in rows:
        contact = contacts[int(row["contactId"])]
        assert row["directory"] == "SHARED"
        for column in CONTACT_CSV[3:]:
            if hasattr(contact, column):  # not the address columns, which join a location's parts
                value = getattr(contact, column) or ""  # a number keeps its zero or sign as text: a leading '
                assert row[column] == (f"'{value}" if value.startswith(("0", "+")) else value), column


# -- CSV files as people make them: every problem named by line, nothing sent -------------

HEADER = "loginId,destinationId,destinationName"


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


async def test_bom_and_windows_line_endings_are_read(admin, recorder, tmp_path):
    login = (await _login_ids(admin))[0]
    path = _write(tmp_path, "excel.csv", b"\xef\xbb\xbf" + f"{HEADER}\r\n{login},41,受付\r\n{login},42,\"二階\r\nロビー\"\r\n".encode())
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, err) == 0, err.getvalue()
    (_, _, body), = recorder.writes("/destinations")
    assert json.loads(body) == {"destinations": [
        {"loginId": login, "destinationId": 41, "destinationName": "受付"},
        {"loginId": login, "destinationId": 42, "destinationName": "二階\nロビー"}]}
    assert out.getvalue() == "Sent 2 destinations in 1 request: 2 registered.\n"


@pytest.mark.parametrize("name, data, said", [
    ("empty.csv", "", "line 1: the file is empty (expected a header: loginId,destinationId,destinationName)"),
    ("blank.csv", "\n\n", "line 1: the file is empty"),
    ("header-only.csv", HEADER + "\r\n", "line 1: the file has its header line but no rows after it"),
    ("no-header.csv", "reception,1,受付\n", "line 1: the first line must be the header "
                                            "loginId,destinationId,destinationName (it reads: reception,1,受付)"),
    ("empty-id.csv", f"{HEADER}\nreception,,x\n", "line 2: destinationId: is required"),
    ("wrong.csv", "login,destinationId,name\nreception,1,x\n",
     "line 1: missing column loginId, destinationName; unknown column login, name"),
    ("twice.csv", "loginId,destinationId,destinationName,loginId\nreception,1,x,other\n",
     "line 1: column named twice: loginId"),
    ("semicolons.csv", "loginId;destinationId;destinationName\nreception;1;x\n",
     "line 1: the columns are separated by ';', not commas"),
    ("spots.csv", "bleId,spotId\ntag-1,lobby\n", "line 1: these are the columns of a spots file (bleId,spotId): use `bulk spots`"),
    ("short.csv", f"{HEADER}\nreception,1,x\nreception,2\n", "line 3: 2 values for 3 columns (destinationName missing"),
    ("long.csv", f"{HEADER}\nreception,1,x,y\n", "line 2: 4 values for 3 columns"),
    ("sjis.csv", f"{HEADER}\nreception,1,受付\n".encode("cp932"), "line 2: the file is not UTF-8 text (byte 0x8e; Shift_JIS?)"),
    ("book.xlsx", b"PK\x03\x04\x14\x00\x06\x00" + bytes(64), "this is a spreadsheet (Excel) file, not CSV"),
    ("nul.csv", f"{HEADER}\nreception,1,x\x00y\n", "line 2: the file holds NUL bytes"),
])
async def test_a_file_that_is_not_right_is_refused_by_line_with_nothing_sent(admin, recorder, tmp_path, name, data, said):
    path = _write(tmp_path, name, data)
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, err) == 1
    assert said in err.getvalue(), err.getvalue()
    assert "nothing was sent" in err.getvalue() and out.getvalue() == ""
    assert recorder.writes() == []


async def test_header_names_are_matched_whatever_their_case_and_order(admin, recorder, tmp_path):
    login = (await _login_ids(admin))[0]
    path = _write(tmp_path, "case.csv", f"\n DestinationName ,LOGINID,destinationid\n三階,{login},7\n")
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, err) == 0, err.getvalue()
    (_, _, body), = recorder.writes("/destinations")
    assert json.loads(body) == {"destinations": [{"loginId": login, "destinationId": 7, "destinationName": "三階"}]}


async def test_a_missing_file_is_said_plainly(admin, recorder, tmp_path):
    err = io.StringIO()
    assert await run_bulk(admin, "destinations", str(tmp_path / "nope.csv"), io.StringIO(), err) == 2
    assert err.getvalue() == f"cannot read {tmp_path / 'nope.csv'}: No such file or directory\n"
    assert recorder.writes() == []


class FailsAfterFirst(Recorder):
    """U11 accepted once, then refused by the service (a half-done bulk run)."""

    async def handle_async_request(self, request):
        if request.method != "GET" and request.url.path.endswith("/destinations") and self.writes("/destinations"):
            self.requests.append((request.method, request.url.path, await request.aread()))
            return httpx.Response(500, json={"error": {"status": "INTERNAL", "message": "storage unavailable"}},
                                  request=request)
        return await super().handle_async_request(request)


async def test_a_run_refused_half_way_says_which_lines_went(clock, tmp_path):
    recorder = FailsAfterFirst(make_server(clock=clock))
    svc = make_service(recorder.app, api_key="demo-admin", transport=recorder)
    try:
        logins = await _login_ids(svc)
        path = _write(tmp_path, "dest.csv", "\n".join([HEADER] + [f"{logins[i % len(logins)]},{i},x" for i in range(12_000)]))
        out, err = io.StringIO(), io.StringIO()
        assert await run_bulk(svc, "destinations", str(path), out, err) == 2
        assert "storage unavailable" in err.getvalue()
        assert ("10000 of 12000 rows were sent before this (lines 2-10001); lines 10002-12001 were not: "
                "send those again.") in err.getvalue()
        assert json.loads(recorder.writes("/destinations")[0][2])["destinations"][-1]["destinationId"] == 9_999
    finally:
        await svc.close()


async def test_rows_the_service_did_not_take_are_counted(admin, recorder, tmp_path):
    login = (await _login_ids(admin))[0]
    path = _write(tmp_path, "dest.csv", f"{HEADER}\n{login},1,x\nno.such.login,2,y\n")
    out = io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, io.StringIO()) == PARTLY_TAKEN
    assert out.getvalue() == ("Sent 2 destinations in 1 request: 1 registered. 1 not registered (the service does not "
                              "say which: check that each loginId exists).\n")
    spots = _write(tmp_path, "spots.csv", "bleId,spotId\nno-such-tag,lobby\n")
    out = io.StringIO()
    assert await run_bulk(admin, "spots", str(spots), out, io.StringIO()) == PARTLY_TAKEN
    assert "Sent 1 spot: 0 accepted" in out.getvalue() and "1 not accepted" in out.getvalue()


async def test_more_spots_than_one_request_takes_are_refused_before_sending(admin, recorder, tmp_path):
    path = _write(tmp_path, "spots.csv", "bleId,spotId\n" + "".join(f"tag-{i},s\n" for i in range(10_001)))
    err = io.StringIO()
    assert await run_bulk(admin, "spots", str(path), io.StringIO(), err) == 1
    assert "10001 spots: the service takes at most 10,000 in one request" in err.getvalue()
    assert recorder.writes() == []


async def test_export_to_a_place_that_cannot_be_written_says_so(admin, tmp_path):
    err = io.StringIO()
    target = tmp_path / "no-such-dir" / "people.csv"
    assert await run_export(admin, _args("users", "-o", str(target)), io.StringIO(), err) == 2
    assert err.getvalue() == f"cannot write {target}: No such file or directory: nothing was exported\n"


async def test_export_flags_for_the_other_kind_are_refused(admin, recorder):
    err = io.StringIO()
    assert await run_export(admin, _args("contacts", "--division", "3", "--type", "FACILITY"), io.StringIO(), err) == 2
    assert err.getvalue() == "--division, --type: only for exporting users; nothing was exported\n"
    assert recorder.requests == []
