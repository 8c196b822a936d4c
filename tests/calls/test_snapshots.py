"""What the desk's telephone looks like, as SVG snapshots at 80x24 and 120x36: the pop-up
(one caller), the stack (a person, a contact, an unknown number), a message being taken,
the chart, favourites and recent people, and the Calls screen's desk order.

Deterministic like tests/tui/test_snapshots.py (whose fixtures it uses): the events carry
fixed times and go straight to the desk phone (no socket), the service's clock is frozen.
After a deliberate change: ``pytest --snapshot-update tests/calls/test_snapshots.py``."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from call_helpers import cards
from corpdir.calls.events import CallEvent, CallState
from corpdir.config import CallsConfig
from corpdir.tui.desk_phone import DeskPhone
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401 - _still: no blink, Tokyo time
from tui.test_snapshots import calls as calls_screen
from tui_helpers import listed, settle, wait_for

RANG = datetime(2025, 6, 15, 1, 46, tzinfo=timezone.utc)  # 10:46 in Tokyo, the frozen clock's day


def ring_app(cache_path) -> Any:
    app = synced_app(cache_path)
    app.desk_phone = DeskPhone(app, CallsConfig(ring_socket=False))
    return app


async def people(pilot, count: int) -> list[Any]:
    """The first ``count`` people with a phone and a division, by id: not by the list's order,
    which ties between equal names may change."""
    users = await pilot.app.service.people.window(None, limit=1000)
    return sorted((u for u in users if u.phoneNum and u.divisions), key=lambda u: u.userId)[:count]


def ring(pilot, call_id: str, number: str, name: str = "", state: CallState = CallState.RINGING, **extra: Any) -> None:
    pilot.app.desk_phone.session.on_event(CallEvent("soft phone", call_id, state, number, name, "201", RANG, **extra))


async def one_ring(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    [user] = await people(pilot, 1)
    ring(pilot, "c1", user.phoneNum, "ヤマダ")
    await settle(pilot, lambda: cards(pilot.app))


async def three_rings(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    [user] = await people(pilot, 1)
    contacts = await pilot.app.service.contacts.window(limit=20)
    contact = next(c for c in contacts if c.phoneNum)
    ring(pilot, "c1", user.phoneNum, state=CallState.ENDED, answered=False, duration=0)
    ring(pilot, "c2", contact.phoneNum, "株式会社サンプル")
    ring(pilot, "c3", "0120444555", "ｻﾝﾌﾟﾙ ｼｮｳｼﾞ")
    await settle(pilot, lambda: len(pilot.app.desk_phone.session.rings) == 3 and cards(pilot.app))  # two and +1 at 80


async def message(pilot) -> None:
    await one_ring(pilot)
    await pilot.press("f9", "m", *"Please call back")
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "MessageSlipForm")


async def chart(pilot) -> None:
    await calls_screen(pilot)
    await pilot.press("t")
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "CallsChart")


async def people_at_hand(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    phone = pilot.app.desk_phone
    from corpdir.service.people_at_hand import ref_of

    first, second, third = await people(pilot, 3)
    phone.people.toggle_favourite(ref_of(first))
    for user in (second, third, first):
        phone.people.viewed(ref_of(user))
    await pilot.press("f8")
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "PeopleAtHandScreen")


SCENES = {"popup": one_ring, "stack": three_rings, "message": message, "chart": chart, "desk_calls": calls_screen,
          "people_at_hand": people_at_hand}


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_desk_phone(scene, size, snap_compare, tmp_path):
    assert snap_compare(ring_app(tmp_path / "cache.sqlite3"), run_before=SCENES[scene], terminal_size=size)
