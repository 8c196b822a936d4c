"""Japanese order and names on the list screens: a key jumps to
a kana row or a letter in a list by name; a search says it is ranked; contact details
name the folder and put names and numbers before the card image."""

from __future__ import annotations

from corpdir.tui.screens.jump_row import JumpToRow
from corpdir.tui.widgets.contact_detail import ContactDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


async def test_j_jumps_to_a_kana_row_in_the_list_by_name(make_app, service):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        start = await backend_of(service).cache.run(backend_of(service).store.users_row_offset, "た")
        assert 0 < start < users.row_count
        await pilot.press("J")
        assert await wait_for(pilot, lambda: isinstance(app.screen, JumpToRow))
        assert "1 あ" in screen_text(app) and "0 わ" in screen_text(app)
        await pilot.press("4")  # た
        assert await wait_for(pilot, lambda: users.cursor == start and users.highlighted is not None)
        before = users.row(start - 1) if start else None
        kana = (users.highlighted.fullnameKana or "")[:1]
        assert kana in "タダチヂツヅテデトドたちつてと", users.highlighted.fullnameKana
        assert before is None or (before.fullnameKana or "")[:1] not in "タダチヂツヅテデトド"


async def test_a_search_says_it_is_ranked_and_offers_no_jump(make_app, service):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        surname = users.highlighted.fullname.split()[0]
        app.screen.query_one("#search").value = surname
        assert await wait_for(pilot, lambda: "ranked by match" in screen_text(app))
        assert "by name" not in screen_text(app)
        users.focus()
        await pilot.press("J")
        await pilot.pause()
        assert not isinstance(app.screen, JumpToRow)


async def test_contact_details_name_the_folder_shared_or_personal_and_put_numbers_before_the_card(make_app, service):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        contacts = app.screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: contacts.highlighted is not None)
        contact = next(contacts.row(i) for i in range(contacts.row_count)
                       if contacts.row(i) is not None and contacts.row(i).folderId is not None
                       and contacts.row(i).folderId.directory == "SHARED")
        names = await service.contacts.folder_names()
        folder = names[(contact.folderId.directory, contact.folderId.folderNum)]
        pane = ContactDetail(service, contact)
        await app.screen.mount(pane)
        fields = pane.query_one("#contact-fields")

        def text() -> str:
            from rich.console import Console

            console = Console(width=80)
            with console.capture() as captured:
                console.print(fields.content)
            return captured.get()

        assert await wait_for(pilot, lambda: f"{folder} (shared)" in text()), text()
        assert "SHARED #" not in text()
        mine = next((num, name) for (directory, num), name in names.items() if directory == "PERSONAL")
        pane.contact = contact.model_copy(update={"folderId": contact.folderId.model_copy(
            update={"directory": "PERSONAL", "folderNum": mine[0]})})
        assert await wait_for(pilot, lambda: f"{mine[1]} (personal)" in text()), text()
        children = list(pane.children)
        assert children.index(fields) < children.index(pane.query_one("#contact-card"))
