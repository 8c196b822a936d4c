"""The busy lamp in a person's detail pane, beside their name: live as it changes (the
AMI replay server's hints give it; a lost manager connection turns it unknown, never a
stale state; the reconnect brings it back), and as SVG snapshots at 80x24 (Enter: the
details full screen) and 120x36 (the pane beside the list). After a deliberate change:
``pytest --snapshot-update tests/calls/test_detail_lamp.py``."""

from __future__ import annotations

import asyncio

import pytest

from calls.test_blf_snapshots import LAMPS, lamp_app, replay_hints
from call_helpers import desk_app, painted
from corpdir.calls.presence.lamps import Lamp
from corpdir.tui.widgets.busy_lamp import LOOK
from sip_helpers import free_port
from tui.test_snapshots import NARROW, WIDE, _still  # noqa: F401 - _still: no blink, Tokyo time
from tui_helpers import listed, settle, wait_for


def title(app) -> str:
    """What the detail pane's heading reads on screen (the cells of its region; the list's
    own lamp column, beside the name too, is left out)."""
    found = app.screen.query("#user-title")
    return " ".join(" ".join(painted(app, found.first().region)).split()) if found else ""


def shows(app, person, lamp: str) -> bool:
    return title(app).startswith(f"{person.fullname} {lamp}")


async def on_the_phone(pilot, folder, port: int):  # noqa: ANN201 - the person highlighted
    """The directory with the first five people with extensions given LAMPS by the replay
    server's hints; the highlight on the second, who is on the phone."""
    await settle(pilot, listed(pilot, "#users"))
    view = pilot.app.screen.query_one("#users")
    rows = [i for i in range(12) if view.row(i).extensionNum][:5]
    await replay_hints(pilot, folder, port, [view.row(i) for i in rows])
    view.cursor = rows[1]
    return view.row(rows[1])


def test_the_detail_pane_shows_the_persons_lamp_beside_the_name_live(tmp_path):
    port = free_port()
    app = lamp_app(tmp_path / "cache.sqlite3", port)  # fills its cache on a loop of its own

    async def live() -> None:
        async with app.run_test(size=WIDE) as pilot:
            person = await on_the_phone(pilot, tmp_path, port)
            assert LAMPS[1] is Lamp.BUSY
            assert await wait_for(pilot, lambda: shows(app, person, "● on the phone"), tries=500), title(app)
            app.replay.drop()  # the manager connection lost: unknown, never the last state kept
            assert await wait_for(pilot, lambda: shows(app, person, "? unknown"), tries=500), title(app)
            assert await wait_for(pilot, lambda: shows(app, person, "● on the phone"), tries=1000)  # reconnected
            await app.replay.stop()

    asyncio.run(live())


async def test_without_lamps_configured_the_name_stands_alone(service):
    app = desk_app(service, ring_socket=False)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot, listed(pilot, "#users"))
        person = app.screen.query_one("#users").highlighted
        assert await wait_for(pilot, lambda: title(app).startswith(person.fullname))
        assert not any(shows(app, person, f"{LOOK[lamp][0]} {lamp.value}") for lamp in Lamp)


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
def test_detail_lamp(size, snap_compare, tmp_path):
    port = free_port()

    async def run_before(pilot) -> None:
        person = await on_the_phone(pilot, tmp_path, port)
        if size == NARROW:  # no pane beside the list: Enter shows the details full screen
            await pilot.press("enter")
        await settle(pilot, lambda: shows(pilot.app, person, "● on the phone"))

    assert snap_compare(lamp_app(tmp_path / "cache.sqlite3", port), run_before=run_before, terminal_size=size)
