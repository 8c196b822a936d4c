"""The band of cards with one, two and three calls, at 80x24 and 120x36, over the
Directory, a form and the 30-day chart: whole cards with their borders and keys (two and
"+1" where three do not fit), the form and the chart keeping their room.

Deterministic like tests/calls/test_snapshots.py (whose app and event helpers it uses).
After a deliberate change: ``pytest --snapshot-update tests/calls/test_band_snapshots.py``."""

from __future__ import annotations

import pytest

from call_helpers import cards
from calls.test_snapshots import people, ring, ring_app
from corpdir.calls.events import CallState
from form_helpers import open_form
from tui.test_snapshots import NARROW, WIDE, _still  # noqa: F401 - _still: no blink, Tokyo time
from tui.test_snapshots import calls as calls_screen
from tui.test_snapshots import contacts as contacts_screen
from tui_helpers import listed, settle


async def directory(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))


async def form(pilot) -> None:
    """The new contact form (the new call form's "called at" is the wall clock's now)."""
    await contacts_screen(pilot)
    await pilot.press("n")
    await open_form(pilot, pilot.app)
    await settle(pilot)


async def chart(pilot) -> None:
    await calls_screen(pilot)
    await pilot.press("t")
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "CallsChart")


async def rings(pilot, count: int) -> None:
    """A person who rang and hung up, a contact's company, an unknown number: the first ``count``."""
    [user] = await people(pilot, 1)
    contacts = await pilot.app.service.contacts.window(limit=20)
    contact = next(c for c in contacts if c.phoneNum)
    calls = [lambda: ring(pilot, "c1", user.phoneNum, state=CallState.ENDED, answered=False, duration=0),
             lambda: ring(pilot, "c2", contact.phoneNum, "株式会社サンプル"),
             lambda: ring(pilot, "c3", "0120444555", "ｻﾝﾌﾟﾙ ｼｮｳｼﾞ")]
    for call in calls[:count]:
        call()
    await settle(pilot, lambda: len(pilot.app.desk_phone.session.rings) == count and cards(pilot.app))


BASES = {"directory": directory, "form": form, "chart": chart}


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("base", list(BASES))
def test_band(base, count, size, snap_compare, tmp_path):
    async def scene(pilot) -> None:
        await BASES[base](pilot)
        await rings(pilot, count)

    assert snap_compare(ring_app(tmp_path / "cache.sqlite3"), run_before=scene, terminal_size=size)
