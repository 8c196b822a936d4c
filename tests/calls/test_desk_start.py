"""The desk phone starts after the first rows are painted (its call session, courier and
whereabouts are built then, on first use): a call that reaches the session before that
is still shown, and the status bar says the feeds once they are open."""

from __future__ import annotations

from datetime import datetime, timezone

from call_helpers import card_text, desk_app
from corpdir.calls.events import CallEvent, CallState
from tui_helpers import wait_for

RANG = datetime(2025, 6, 15, 1, 46, tzinfo=timezone.utc)


async def test_a_call_heard_before_the_desk_phone_started_pops_up_once_it_has(service, demo_user):
    app = desk_app(service, ring_socket=False)
    app.desk_phone.session.on_event(CallEvent("soft phone", "c1", CallState.RINGING, demo_user.phoneNum, "", "201", RANG))
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app))
        assert app.desk_phone.session.rings[0].caller.record.userId == demo_user.userId


async def test_the_phone_status_is_empty_until_the_feeds_start_and_then_says_them(service):
    app = desk_app(service)
    assert app.desk_phone.status_text() == ""  # no feed is open before the first rows
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: app.desk_phone.status_text() != "")
