"""The message desk as SVG snapshots at 80x24 and 120x36: the message form choosing whom
a message is for, the slips list (F6) with a slip in each state, and the whereabouts
picker. The form for a known caller is in tests/calls/test_snapshots.py ("message").
After a deliberate change: ``pytest --snapshot-update tests/calls/test_message_snapshots.py``."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from call_helpers import cards
from calls.test_snapshots import people, ring, ring_app
from corpdir.calls.messages.slips import Outcome, SlipState, new_slip
from corpdir.service.whereabouts import Whereabout
from tui.test_snapshots import NARROW, WIDE, _still  # noqa: F401 - _still: no blink, Tokyo time
from tui_helpers import listed, settle

TAKEN = "2025-06-15T10:4{}:00+09:00"  # the frozen clock's day, in Tokyo


async def choose_recipient(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    ring(pilot, "c1", "0357001234", "ヤマモト商事")
    await settle(pilot, lambda: cards(pilot.app))
    [user] = await people(pilot, 1)
    await pilot.press("f9", "m", *(user.fullnameKana or "").split()[0])
    await settle(pilot, lambda: pilot.app.screen.query("#slip-matches") and pilot.app.screen.query_one("#slip-matches").display)


async def slips(pilot) -> None:
    from corpdir.tui.screens.slips import SlipsScreen

    await settle(pilot, listed(pilot, "#users"))
    book = pilot.app.desk_phone.courier.book
    book.clock = lambda: datetime.fromisoformat(TAKEN.format(9))  # the frozen day: nothing is old yet
    base = {"for_email": "yamada@corpo-denki.example", "caller_number": "0357001234"}
    states = [("山田 太郎", "ヤマモト商事 佐藤様", Outcome.CALL_BACK, "見積の件", SlipState.SENT, ""),
              ("鈴木 花子", "青木 明美", Outcome.CALLED, "", SlipState.QUEUED, "cannot reach mail.example:587 (Connection refused)"),
              ("田中 一郎", "", Outcome.WILL_CALL_AGAIN, "午後にまた", SlipState.HELD, "田中 一郎 has no e-mail address"),
              ("高橋 健", "株式会社サンプル", Outcome.CALL_BACK, "至急", SlipState.UNCERTAIN, "cut off while handing over")]
    for minute, (to, caller, outcome, text, state, error) in enumerate(states):
        slip = new_slip(for_name=to, caller_name=caller, outcome=outcome, text=text, **base)
        book.put(replace(slip, id=f"s{minute}", taken_at=TAKEN.format(minute), state=state, error=error,
                         attempts=1 if error else 0, sent_at=TAKEN.format(minute + 1) if state is SlipState.SENT else None))
    pilot.app.push_screen(SlipsScreen(pilot.app.desk_phone.courier, day=book.clock()))
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "SlipsScreen")


async def whereabouts(pilot) -> None:
    from corpdir.tui.screens.whereabouts_picker import WhereaboutsPicker

    await settle(pilot, listed(pilot, "#users"))
    [user] = await people(pilot, 1)
    now = Whereabout("yamada", 2, "会議中 11:00まで", TAKEN.format(0), sent=True)
    pilot.app.push_screen(WhereaboutsPicker(user.fullname, list(pilot.app.desk_phone.places.destinations), now))
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "WhereaboutsPicker")


SCENES = {"choose_recipient": choose_recipient, "slips": slips, "whereabouts": whereabouts}


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_message_desk(scene, size, snap_compare, tmp_path):
    assert snap_compare(ring_app(tmp_path / "cache.sqlite3"), run_before=SCENES[scene], terminal_size=size)
