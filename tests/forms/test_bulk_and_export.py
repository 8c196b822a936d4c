"""The bulk screen (b: a CSV chosen in the picker, its first rows, every bad row by line
number with nothing sent, then progress and the result of U11) and the export screen
(x: the list on screen written as CSV or vCard 4.0 to a path, then read back)."""

import csv
import re

import vobject
from textual.widgets import Input, ProgressBar, Static

from corpdir.service.export import TEL_TYPES
from corpdir.tui.screens.bulk import BulkScreen
from corpdir.tui.screens.export import ExportScreen
from corpdir.tui.widgets.virtual_list import VirtualList
from forms.write_helpers import choose, choose_folder, pick_file
from service_fixtures import service_division_paths
from tui_helpers import screen_text, settle, wait_for
from corpdir.service.backend import backend_of


async def _open_bulk(pilot, app) -> BulkScreen:
    await pilot.pause()
    await pilot.press("b")
    assert await wait_for(pilot, lambda: isinstance(app.screen, BulkScreen))
    return app.screen


def _static_text(screen, selector):
    return str(screen.query_one(selector, Static).render())


async def test_bulk_destinations_from_a_csv(admin, recorder, app_for, server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the picker starts here
    logins = [u.loginId for u in (await backend_of(admin).client.list_users(pageSize=3)).items]
    bad = tmp_path / "bad.csv"
    bad.write_text("loginId,destinationId,destinationName\n"
                   f"{logins[0]},5001,受付前\n"
                   f"{logins[1]},five,二階\n"
                   "\n"
                   f"{'x' * 51},5003,三階\n", encoding="utf-8")
    good = tmp_path / "good.csv"
    good.write_text("\ufeffloginId,destinationId,destinationName\n"
                    + "".join(f"{login},{5001 + i},フロア{i + 1}\n" for i, login in enumerate(logins)), encoding="utf-8")
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        bulk = await _open_bulk(pilot, app)
        await pilot.press("ctrl+o")
        await pick_file(pilot, app, bad)
        assert bulk.query_one("#bulk-path", Input).value == str(bad)
        assert await wait_for(pilot, lambda: "bad rows" in _static_text(bulk, "#bulk-errors"))
        errors = _static_text(bulk, "#bulk-errors")
        assert "2 bad rows; nothing will be sent" in errors
        assert "line 3: destinationId:" in errors and "line 5: loginId:" in errors  # lines of the file
        assert "\n".join(errors.split("\n")[1:3]).startswith("line 3: destinationId:")  # a line each
        assert "\ufffd" not in errors
        assert "line 2" not in errors
        text = screen_text(app)
        assert "bad.csv: first rows" in text and "受付前" in text and logins[0] in text  # the preview
        recorder.clear()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert recorder.writes() == []  # nothing while any row is bad

        path = bulk.query_one("#bulk-path", Input)
        path.focus()
        path.value = ""
        await pilot.press(*str(good), "enter")  # typed, Enter reads it
        assert await wait_for(pilot, lambda: "all valid" in _static_text(bulk, "#bulk-errors"))
        assert "3 rows, all valid: Ctrl+S sends them in 1 request." in _static_text(bulk, "#bulk-errors")
        recorder.clear()
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: "registered" in _static_text(bulk, "#bulk-result"))
        assert _static_text(bulk, "#bulk-result") == "Sent 3 destinations in 1 request: 3 registered."
        bar = bulk.query_one("#bulk-progress", ProgressBar)
        assert bar.display and bar.total == 3 and bar.progress == 3
        assert recorder.writes() == [("PATCH", "/v1/destinations", {"destinations": [
            {"loginId": login, "destinationId": 5001 + i, "destinationName": f"フロア{i + 1}"}
            for i, login in enumerate(logins)]})]
        # no operation reads destinations back: ask the reference server's storage
        storage = server.state.storage
        users = {u.loginId: u.userId for u in (await backend_of(admin).client.list_users(loginIds=logins)).items}
        assert [storage.get_destination(users[login]) for login in logins] == [
            {"destinationId": 5001 + i, "destinationName": f"フロア{i + 1}"} for i in range(3)]
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, BulkScreen))


async def _export(pilot, app, path, fmt):
    await pilot.press("x")
    assert await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
    screen = app.screen
    if fmt != "csv":
        await choose(pilot, screen.query_one("#export-format"), {"vcard": "vCard 4.0"}[fmt], fmt)
        assert screen.query_one("#export-path", Input).value.endswith(".vcf")
    field = screen.query_one("#export-path", Input)
    field.focus()
    field.value = ""
    await pilot.press(*str(path), "enter")
    assert await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen))
    assert path.is_file()


def _rows(app, list_id):
    rows = app.screen.query_one(list_id, VirtualList)
    return [rows.row(i) for i in range(rows.row_count)]


async def test_export_the_list_as_csv_and_vcard(reception, app_for, tmp_path):
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        # the directory, narrowed by a search: the CSV holds exactly the people shown
        await pilot.press("slash", *"営業", "enter")  # Enter: back to the list, so x is a key, not a letter
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: app.screen.browse.text == "営業" and users.row_count > 0
                              and all(r is not None for r in _rows(app, "#users")))
        await settle(pilot)  # every load finished: what a person sees
        shown = _rows(app, "#users")
        everyone = await reception.people.count(None)
        assert 0 < len(shown) < everyone
        await _export(pilot, app, tmp_path / "people.csv", "csv")
        with open(tmp_path / "people.csv", encoding="utf-8-sig", newline="") as f:  # with the BOM Excel needs
            written = list(csv.DictReader(f))
        assert [int(r["userId"]) for r in written] == [u.userId for u in shown]
        stored = {u.userId: await backend_of(reception).client.get_user(u.userId) for u in shown}
        paths = await service_division_paths(backend_of(reception).client)
        for row in written:
            user = stored[int(row["userId"])]
            assert (row["fullname"], row["extensionNum"], row["email1"]) == (
                user.fullname, user.extensionNum or "", user.email1 or "")
            assert row["divisions"] == "; ".join(paths[d.divisionId] for d in user.divisions or [])  # by path

        # contacts of one folder as vCard 4.0
        await pilot.press("f2")
        await pilot.pause()
        await choose_folder(pilot, app, "SHARED", 1)
        contacts = app.screen.query_one("#contacts", VirtualList)
        in_folder = [c async for c in backend_of(reception).client.iter_contacts(directory="SHARED", folderNums=[1])]
        assert await wait_for(pilot, lambda: contacts.row_count == len(in_folder) > 0)
        await _export(pilot, app, tmp_path / "folder.vcf", "vcard")
        cards = list(vobject.readComponents((tmp_path / "folder.vcf").read_text(encoding="utf-8")))
        assert sorted(c.uid.value for c in cards) == sorted(f"urn:corpdir:contact:{c.contactId}" for c in in_folder)
        by_uid = {c.uid.value: c for c in cards}
        for contact in in_folder:
            card = by_uid[f"urn:corpdir:contact:{contact.contactId}"]
            assert card.version.value == "4.0" and card.fn.value == (contact.fullname or "")
            phones = [getattr(contact, f) for f in TEL_TYPES if getattr(contact, f, None)]
            assert sorted(t.value for t in card.contents.get("tel", [])) == sorted(phones)  # every number, intact
            emails = [e for e in (contact.email1, contact.email2) if e]
            assert sorted(e.value for e in card.contents.get("email", [])) == sorted(emails)


async def test_bulk_screen_refuses_a_file_it_cannot_read_and_says_a_403(reception, recorder, app_for, tmp_path):
    sjis = tmp_path / "sjis.csv"
    sjis.write_bytes("loginId,destinationId,destinationName\nreception,1,受付\n".encode("cp932"))
    good = tmp_path / "good.csv"
    good.write_text("loginId,destinationId,destinationName\nreception,1,受付\n", encoding="utf-8")
    app = app_for(reception)
    async with app.run_test(size=(120, 40)) as pilot:
        bulk = await _open_bulk(pilot, app)
        path = bulk.query_one("#bulk-path", Input)
        await pilot.press(*str(sjis), "enter")
        assert await wait_for(pilot, lambda: "not UTF-8" in _static_text(bulk, "#bulk-errors"))
        assert _static_text(bulk, "#bulk-errors") == ('sjis.csv: line 2: the file is not UTF-8 text (byte 0x8e; Shift_JIS?): '
                                                     'save it as "CSV UTF-8 (comma delimited)". Nothing will be sent.')
        recorder.clear()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert recorder.writes() == []

        path.value = ""
        await pilot.press(*str(good), "enter")
        assert await wait_for(pilot, lambda: "all valid" in _static_text(bulk, "#bulk-errors"))
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: "user management" in _static_text(bulk, "#bulk-result"))
        assert _static_text(bulk, "#bulk-result").endswith("It needs user management.\nNothing was changed.")
        assert [(m, p) for m, p, _ in recorder.writes()] == [("PATCH", "/v1/destinations")]


async def test_bulk_spots_inside_the_5_minute_window_say_when_to_try_again(admin, recorder, app_for, tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text("bleId,spotId\ntag-1,lobby\n", encoding="utf-8")
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        bulk = await _open_bulk(pilot, app)
        await choose(pilot, bulk.query_one("#bulk-kind"), "Spots of location tags", "spots")
        path = bulk.query_one("#bulk-path", Input)
        path.focus()
        await pilot.press(*str(spots), "enter")
        assert await wait_for(pilot, lambda: "1 row, all valid" in _static_text(bulk, "#bulk-errors"))
        recorder.clear()
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: "Sent 1 spot" in _static_text(bulk, "#bulk-result"))
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: "one spot list per 5 minutes" in _static_text(bulk, "#bulk-result"))
        assert re.search(r"Try again in [45] min \d+ s \(at \d\d:\d\d:\d\d\)\.$", _static_text(bulk, "#bulk-result"))
        assert [(m, p) for m, p, _ in recorder.writes()] == [("POST", "/v1/locations/spots")] * 2


async def test_bulk_is_not_offered_where_the_variant_has_no_bulk_operation(app_for):
    """Variant A has neither U11 nor L1: the key does nothing and is not listed."""
    import httpx

    from corpdir.cache.store import CacheStore
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig
    from corpdir.service.directory import DirectoryService
    from service_fixtures import BASE_URL, make_server

    settings = ServiceConfig(base_url=BASE_URL, api_key="demo-admin", variant="A", max_retries=1)
    client = DirectoryClient(settings, transport=httpx.ASGITransport(app=make_server(variant="A")))
    service = DirectoryService(client, CacheStore(":memory:"), settings)
    await service.sync.run()
    app = app_for(service)
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count > 0)
        offered = {b.action for _n, b, enabled, _t in app.screen.active_bindings.values() if enabled}
        assert "bulk" not in offered and "export" in offered
        await pilot.press("b")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, BulkScreen)
    await service.close()
