"""The contacts screen, driven as a receptionist would, against the real stack."""

from corpdir.tui.screens.detail_screen import DetailScreen
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.folder_tree import FolderTree
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


def rows(lst: VirtualList) -> list:
    return [lst.row(i) for i in range(lst.row_count)]


async def test_folder_then_company_filter_then_card(make_app, service):
    with_card = None
    for contact in await service.contacts.window("SHARED", 1, limit=20):
        if contact.companyName and await service.images.card(contact.contactId):
            with_card = contact
            break
    assert with_card is not None
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        await pilot.press("f2")
        tree = app.screen.query_one(FolderTree)
        contacts = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: any(n.data.folder_num == 1 for b in tree.root.children for n in b.children))
        folder = next(n for b in tree.root.children for n in b.children if n.data.folder_num == 1)
        tree.select_node(folder)
        assert await wait_for(pilot, lambda: contacts.row_count == backend_of(service).store.count_contacts("SHARED", 1))
        assert "取引先" in screen_text(app)

        await pilot.press("f")  # the filter bar: company
        app.screen.query_one("#filter-companyName").focus()
        await pilot.press(*with_card.companyName)
        assert await wait_for(pilot, lambda: 0 < contacts.row_count < backend_of(service).store.count_contacts("SHARED", 1)
                              and all(r is not None and with_card.companyName in r.companyName and r.folderId.folderNum == 1
                                      for r in rows(contacts)))
        # a bad date is shown beside the fields and nothing is sent
        before = contacts.row_count
        app.screen.query_one("#filter-updatedFrom").focus()
        await pilot.press(*"2024-13-01")
        assert await wait_for(pilot, lambda: "is not a date" in screen_text(app))
        assert contacts.row_count == before and not any(k == "updatedFrom" for k, _ in app.screen.browse.filters)

        contacts.cursor = next(i for i, r in enumerate(rows(contacts)) if r.contactId == with_card.contactId)
        detail = app.screen.query_one(ContactDetail)
        assert await wait_for(pilot, lambda: detail.contact is not None and detail.contact.contactId == with_card.contactId)
        assert await wait_for(pilot, lambda: "▄" in screen_text(app) or "▀" in screen_text(app))
        text = screen_text(app)
        assert with_card.fullname in text and "Company kana" in text and with_card.phoneNum in text


async def test_narrow_shows_data_literally_and_opens_details_full_screen(make_app, service):
    backend_of(service).store.put_contacts([
        {"contactId": 900001, "folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "[link=file:///etc/passwd]x",
         "companyName": "evil\x1b]52;c;SGk=\x07corp", "phoneNum": "03-0000-0001"},
        {"contactId": 900002, "folderId": {"directory": "SHARED", "folderNum": 1}, "fullname": "[red]x[/red]"},
    ])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        contacts = app.screen.query_one("#contacts", VirtualList)
        detail = app.screen.query_one("#detail")
        # settled: the narrow layout is applied (no room for the pane at 80 columns) and both
        # names show as typed (the list cuts the long one with …)
        assert await wait_for(pilot, lambda: contacts.highlighted is not None and not detail.display
                              and "[red]x[/red]" in screen_text(app) and "[link=file://" in screen_text(app))
        assert contacts.highlighted.contactId == 900001
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        assert await wait_for(pilot, lambda: "evil\ufffd]52;c;SGk=\ufffdcorp" in screen_text(app))
        assert "[link=file:///etc/passwd]x" in screen_text(app) and "\x1b" not in app.export_screenshot()
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen.query("#contacts"))
