"""`corpdir bulk` and `corpdir export` against the reference server in-process: requests
counted at the transport, rows checked before anything is sent, L1's 5-minute rule
explained, vCard parsed back by vobject, CSV read back."""

import argparse
import csv
import io
import json

import httpx
import pytest

from corpdir.commands.bulk import run_bulk
from corpdir.commands.export import configure as export_configure, run_export
from service_fixtures import make_server, make_service


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
    return [u.loginId async for u in svc.client.iter_users(select=["userId", "loginId"])]


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
    assert "25000 destinations sent in 3 requests" in out.getvalue()


async def test_a_bad_row_is_reported_by_line_and_nothing_is_sent(admin, recorder, tmp_path):
    logins = await _login_ids(admin)
    lines = ["loginId,destinationId,destinationName"] + [f"{logins[0]},{i},room" for i in range(1, 30)]
    lines[16] = f"{logins[0]},seventeen,room"  # line 17 of the file
    path = tmp_path / "dest.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "destinations", str(path), out, err) == 1
    assert "line 17: destinationId: must be a whole number" in err.getvalue()
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
    path = tmp_path / "spots.csv"
    path.write_text("bleId,spotId\ntag-1,lobby\ntag-2,room-3\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "spots", str(path), out, err) == 0, err.getvalue()
    assert "2 spots sent" in out.getvalue()  # accepted: those whose tag belongs to a user
    clock.now += 100  # 100 s later: 200 s of the window left
    out, err = io.StringIO(), io.StringIO()
    assert await run_bulk(admin, "spots", str(path), out, err) == 3
    assert "one spot list per 5 minutes" in err.getvalue()
    assert "Try again in 3 min 20 s" in err.getvalue()
    clock.now += 200
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

    created = await admin.create_user({"loginId": "cjk.vcard", "fullname": "王 伟", "fullnameKana": "ワン ウェイ",
                                       "extensionNum": "7001", "phoneNum": "+81 3-1234-5678".replace(" ", ""),
                                       "mobileNum": "090-1111-2222", "email1": "wang@example.jp",
                                       "email2": "wei;x@example.jp"})
    out = io.StringIO()
    assert await run_export(admin, _args("users", "--format", "vcard"), out, io.StringIO()) == 0
    users = {u.userId: u async for u in admin.client.iter_users()}
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


async def test_csv_export_round_trips_with_filters(admin):
    from corpdir.service.export import CONTACT_CSV

    out = io.StringIO()
    assert await run_export(admin, _args("contacts", "--directory", "SHARED"), out, io.StringIO()) == 0
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    contacts = {c.contactId: c async for c in admin.client.iter_contacts(directory="SHARED")}
    assert len(rows) == len(contacts) > 0
    for row in rows:
        contact = contacts[int(row["contactId"])]
        assert row["directory"] == "SHARED"
        for column in CONTACT_CSV[3:]:
            assert row[column] == (getattr(contact, column) or ""), column
