"""What each screen looks like, as SVG snapshots (pytest-textual-snapshot).

Deterministic by construction: the small demo tenant (fixed seed), a service clock frozen
at the moment of the sync (the status bar says "synced just now"), calls shown in Tokyo
time, no cursor blink, and every worker finished before the picture is taken. After a
deliberate change to a screen: ``pytest --snapshot-update tests/tui/test_snapshots.py``,
then look at the new SVGs (tests/tui/__snapshots__/test_snapshots/) before committing.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable

import pytest
from textual.widgets import Input

from corpdir.cache.store import CacheStore
from corpdir.client import DirectoryClient
from corpdir.config import ServiceConfig
from corpdir.service.directory import DirectoryService
from corpdir.state import State
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import BASE_URL, make_server
from tui_helpers import listed, settle

FROZEN_NOW = 1_750_000_000.0  # the service's clock: sync time and "now" are the same instant
WIDE, NARROW = (120, 36), (80, 24)


@pytest.fixture(autouse=True)
def _still(monkeypatch):
    """No blinking cursor, one time zone, no token count: two runs draw the same picture."""
    monkeypatch.setattr(Input, "cursor_blink", False)
    # How many requests a screen has made by the time it is still depends on timing (detail
    # panes follow the highlight after a pause, answers come in any order), so the status
    # bar's rate-limit tokens are left out of the pictures.
    monkeypatch.setattr(DirectoryService, "rate_limit", property(lambda self: None))
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def synced_app(cache_path, key: str = "demo-reception") -> Any:
    """The app on a synced cache of the small demo tenant, its clock frozen; by default
    the reception desk's key (``demo-admin``: where a screen is an administrator's).

    The cache is filled by one service on a loop of its own, then the app gets a second
    service on the same file: nothing asyncio-bound crosses from one event loop to the next."""
    import httpx

    from corpdir.tui.app import CorpdirApp

    settings = ServiceConfig(base_url=BASE_URL, api_key=key, max_retries=1, retry_initial_delay=0.01,
                               retry_max_delay=0.02)
    server = make_server()

    def service() -> DirectoryService:
        client = DirectoryClient(settings, transport=httpx.ASGITransport(app=server), clock=lambda: 0.0)
        return DirectoryService(client, CacheStore(str(cache_path)), settings, clock=lambda: FROZEN_NOW)

    async def fill() -> None:
        filler = service()
        await filler.sync.run()
        await filler.close()

    asyncio.run(fill())
    return CorpdirApp(service(), state=State(), sync_on_start=False, owns_service=True)




def shown(pilot, text: str) -> Callable[[], bool]:
    from tui_helpers import screen_text

    return lambda: text in screen_text(pilot.app)


Scene = Callable[[Any], Awaitable[None]]


async def directory(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))


async def directory_search(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    first = pilot.app.screen.query_one("#users", VirtualList).highlighted
    await pilot.press("slash", *first.fullnameKana.split()[0][:3])
    await settle(pilot, lambda: pilot.app.screen.browse.text and listed(pilot, "#users")())


async def user_full_screen(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("enter")
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "DetailScreen")


async def user_full_screen_widened(pilot) -> None:
    """The full screen opens on a narrow terminal (a wide one shows the pane instead); then
    the terminal is widened: the details fill it."""
    await pilot.resize_terminal(*NARROW)
    await user_full_screen(pilot)
    await pilot.resize_terminal(*WIDE)
    await settle(pilot)


async def contacts(pilot) -> None:
    await pilot.press("f2")
    await settle(pilot, listed(pilot, "#contacts"))


async def calls(pilot) -> None:
    await pilot.press("f3")
    await settle(pilot, listed(pilot, "#calls"))


async def lookup(pilot) -> None:
    await pilot.press("f4")
    await settle(pilot, lambda: pilot.app.screen.query("#numbers"))
    service = pilot.app.service
    users = await service.people.window(None, limit=5)
    numbers = [u.phoneNum for u in users if u.phoneNum][:2] + ["03-0000-0009"]
    await pilot.press(*", ".join(numbers), "enter")
    await settle(pilot, listed(pilot, "#results"))


def full_width(number: str) -> str:
    """A number as a Japanese keyboard types it: full-width digits, 'ー' for the hyphen."""
    return "".join(chr(ord(ch) + 0xFEE0) if ch.isdigit() else "ー" if ch == "-" else ch for ch in number)


async def deep_division_with_number(service, parent=None, depth: int = 0):
    """A division at least three levels down that has a phone number (None: none such)."""
    for division in await service.divisions.children(parent):
        if depth >= 2 and division.divisionPhoneNum:
            return division
        if found := await deep_division_with_number(service, division.divisionId, depth + 1):
            return found
    return None


async def lookup_mixed(pilot) -> None:
    """Several entries typed on one line, as the issue lists them: a number in full width,
    an extension, a division's number, an unknown number and a word."""
    await pilot.press("f4")
    await settle(pilot, lambda: pilot.app.screen.query("#numbers"))
    service = pilot.app.service
    user = next(u for u in await service.people.window(None, limit=200) if u.phoneNum and u.extensionNum and u.divisions)
    division = await deep_division_with_number(service)
    typed = f"{full_width(user.phoneNum)} {user.extensionNum} {division.divisionPhoneNum} 999-9999 abc"
    pilot.app.screen.query_one("#numbers", Input).insert_text_at_cursor(typed)
    await pilot.press("enter")
    await settle(pilot, listed(pilot, "#results"))


SCENES: dict[str, tuple[Scene, tuple[int, int]]] = {
    "directory": (directory, WIDE),
    "directory_narrow": (directory, NARROW),
    "directory_search": (directory_search, WIDE),
    "directory_search_narrow": (directory_search, NARROW),
    "user_narrow": (user_full_screen, NARROW),
    "user_wide": (user_full_screen_widened, WIDE),
    "contacts": (contacts, WIDE),
    "contacts_narrow": (contacts, NARROW),
    "calls": (calls, WIDE),
    "calls_narrow": (calls, NARROW),
    "lookup": (lookup, WIDE),
    "lookup_narrow": (lookup, NARROW),
    "lookup_mixed": (lookup_mixed, WIDE),
    "lookup_mixed_narrow": (lookup_mixed, NARROW),
}


@pytest.mark.parametrize("scene", list(SCENES))
def test_screen(scene, snap_compare, tmp_path):
    run_before, size = SCENES[scene]
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=run_before, terminal_size=size)
