"""The whole hostile corpus (tests/hostile_text.py) through the TUI's surfaces: the list, the
detail pane, the division tree and notifications. The records come straight into the
cache, as a non-conforming service could deliver them; what Textual would write to the
terminal (its SVG export of the screen) must hold no control, C1, bidi or invisible
character, and markup must show as typed."""

from __future__ import annotations

from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from hostile_text import HOSTILE, assert_inert
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of

DIVISION = 9000


async def test_the_corpus_is_inert_in_list_detail_tree_and_notifications(service, make_app):
    template = (await service.people.window(None, limit=1))[0].model_dump(mode="json", exclude_none=True)
    backend_of(service).store.put_divisions([{"divisionId": DIVISION, "divisionCode": "HOSTILE", "sortScore": 0,
                                  "divisionName": HOSTILE["bidi"] + HOSTILE["osc52"] + HOSTILE["markup"]}])
    backend_of(service).store.put_users([{**template, "userId": 9100 + i, "fullname": value, "fullnameKana": "テスト",
                              "position": value, "email1": f"x{i}@example.jp", "phoneNum": f"03-5555-{i:04d}",
                              "divisions": [{"divisionId": DIVISION, "divisionName": value}]}
                             for i, value in enumerate(HOSTILE.values())])
    app = make_app()
    async with app.run_test(size=(160, 60), notifications=True) as pilot:
        tree = app.screen.query_one("#tree")
        assert await wait_for(pilot, lambda: any(n.data is not None and n.data.divisionId == DIVISION
                                                 for n in tree.root.children))
        tree.select_node(next(n for n in tree.root.children if n.data is not None and n.data.divisionId == DIVISION))
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.row_count == len(HOSTILE)
                              and all(users.row(i) is not None for i in range(users.row_count)))
        assert "abc<U+202E>dcba.exe" in screen_text(app)  # tree label and list row, shown not obeyed
        assert_inert(app.export_screenshot())
        detail = app.screen.query_one(UserDetail)
        for row in range(users.row_count):
            users.cursor = row
            wanted = users.row(row).userId
            assert await wait_for(pilot, lambda: detail.user is not None and detail.user.userId == wanted)
            await pilot.pause()
            assert_inert(app.export_screenshot())
            if users.row(row).fullname in (HOSTILE["markup"], HOSTILE["link"]):  # the detail pane: as typed
                assert await wait_for(pilot, lambda: users.row(row).fullname in screen_text(app))
        for name in ("link", "osc8", "c1", "isolates", "zero_width"):  # five toasts fit on the screen
            app.notify(f"Saved {HOSTILE[name]}", title=HOSTILE[name])
        await pilot.pause()
        assert "Saved [link=file:///etc/passwd]x[/link]" in screen_text(app)
        assert_inert(app.export_screenshot())


async def test_the_corpus_is_inert_in_the_contact_list_and_detail_pane():
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp
    from corpdir.tui.widgets.contact_detail import ContactDetail
    from service_fixtures import make_service

    service = make_service()  # an unsynced cache: the contact list holds the corpus only
    backend_of(service).store.put_contacts([{"contactId": 990000 + i, "folderId": {"directory": "SHARED", "folderNum": 1},
                                 "fullname": value, "companyName": value, "divisionName": value, "position": value,
                                 "comment": value, "phoneNum": f"03-6666-{i:04d}"}
                                for i, value in enumerate(HOSTILE.values())])
    app = CorpdirApp(service, state=State(), sync_on_start=False, owns_service=True)
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.press("f2")
        contacts = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: contacts.row_count > 0
                              and all(contacts.row(i) is not None for i in range(contacts.row_count)))
        detail = app.screen.query_one(ContactDetail)
        hostile = [i for i in range(contacts.row_count) if contacts.row(i).contactId >= 990000]
        assert len(hostile) == len(HOSTILE)
        for row in hostile:
            contacts.cursor = row
            wanted = contacts.row(row).contactId
            assert await wait_for(pilot, lambda: detail.contact is not None and detail.contact.contactId == wanted)
            await pilot.pause()
            assert_inert(app.export_screenshot())
            if contacts.row(row).fullname == HOSTILE["link"]:
                assert await wait_for(pilot, lambda: HOSTILE["link"] in screen_text(app))
