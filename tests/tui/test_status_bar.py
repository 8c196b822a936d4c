"""The status bar during a sync: the users' pass and the contacts run side by side, and
the bar says both in one steady line ('syncing users 60 · contacts 40') instead of
switching between 'syncing users ...' and 'syncing contacts ...' as each reports."""

from __future__ import annotations

from corpdir.state import State
from corpdir.tui.app import CorpdirApp
from corpdir.tui.widgets.status_bar import StatusBar
from service_fixtures import make_server, make_service
from tui_helpers import wait_for
from corpdir.service.backend import backend_of


async def test_a_sync_of_users_and_contacts_is_one_steady_line_with_both_counts():
    server = make_server()
    service = make_service(server)
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    try:
        async with app.run_test(size=(160, 36)) as pilot:
            bar = app.screen.query_one(StatusBar)
            said: list[str] = []  # every text the bar is given: a look now and then could miss the switching
            show = bar.update
            bar.update = lambda text, **options: (said.append(str(text)), show(text, **options))[1]
            await pilot.press("ctrl+s")
            assert await wait_for(pilot, lambda: app.sync.done == 1, tries=500)
            users, contacts = backend_of(service).store.count_users(), backend_of(service).store.count_contacts()
            assert users and contacts
            syncing = [text.partition("syncing ")[2] for text in said if "syncing " in text]
            both = [i for i, text in enumerate(syncing) if "users" in text and "contacts" in text]
            assert both, said
            # once both have reported, every line names both: nothing switches back to one of them
            assert all("users" in text and "contacts" in text for text in syncing[both[0]:]), syncing
            assert f"users {users:,}" in syncing[-1] and f"contacts {contacts:,}" in syncing[-1], syncing
            assert "syncing" not in said[-1]  # the sync is over: the bar says so no longer
            assert "syncing" not in str(bar.render())
    finally:
        await service.close()
