"""The band of cards as a receptionist lives with it: an ended call's card leaves after
the configured time (the clock is the test's, nothing waits), ``D`` closes every card,
`corpdir ring N --state ended` ends the card it popped, the band shows whole cards (two
and "+1" at 80 columns), the message dialog says where a message goes, and a long phone
status leaves "synced" on the status line."""

from __future__ import annotations

import asyncio

import httpx

from call_helpers import card_text, cards, desk_app, feed_ready, painted
from calls.test_action_url import yealink_desk, yealink_url
from calls.test_focus_returns import Clock
from calls.test_popup import ring_in
from calls.test_ring_command import ring
from calls.test_session import Watcher, started
from corpdir.calls.events import CallState
from corpdir.tui.widgets.status_bar import StatusBar
from tui_helpers import screen_text, wait_for


async def next_shown(watcher: Watcher, predicate) -> tuple:  # noqa: ANN001 - a test's condition
    while True:
        rings = await watcher.shown.get()
        if predicate(rings):
            return rings


async def test_an_ended_card_stays_the_configured_time_and_then_leaves(service):
    watcher, clock = Watcher(), Clock()
    session = await started(service, watcher, ended_card_seconds=90)
    session.clock = clock
    try:
        await ring_in("0357001000", call_id="a")
        await ring_in("0357002000", call_id="b")
        await next_shown(watcher, lambda rings: len(rings) == 2)
        await ring_in("0357001000", call_id="a", state="ended")
        await next_shown(watcher, lambda rings: rings[1].event.state is CallState.ENDED)
        clock.now += 89
        session.sweep()
        assert [r.event.call_id for r in session.rings] == ["b", "a"]  # 89 s: still there
        assert session._sweep is not None  # and a timer for the rest
        clock.now += 1
        session.sweep()
        assert [r.event.call_id for r in session.rings] == ["b"]  # 90 s: gone; the ringing call stays
        assert session._sweep is None  # nothing left to time
    finally:
        await session.stop()


async def test_the_default_is_sixty_seconds_and_the_timer_fires_by_itself(service):
    watcher = Watcher()
    session = await started(service, watcher)
    assert session.settings.ended_card_seconds == 60
    session.settings = session.settings.model_copy(update={"ended_card_seconds": 0.05})
    try:
        await ring_in("0357001000", call_id="a", state="ended")
        await next_shown(watcher, lambda rings: len(rings) == 1)
        assert await asyncio.wait_for(next_shown(watcher, lambda rings: not rings), 30) == ()
    finally:
        await session.stop()


async def test_ring_state_ended_without_a_call_id_ends_the_newest_card_of_that_number(service, demo_user):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        for number in (demo_user.phoneNum, "0357001000", demo_user.phoneNum):
            assert (await asyncio.to_thread(ring, number)).returncode == 0
        assert await wait_for(pilot, lambda: len(cards(app)) == 3)
        newest = cards(app)[0].ring.uid
        done = await asyncio.to_thread(ring, demo_user.phoneNum.replace("-", ""), "--state", "ended")
        assert done.returncode == 0, done.stderr
        assert await wait_for(pilot, lambda: cards(app)[0].has_class("-ended"))
        assert len(cards(app)) == 3 and cards(app)[0].ring.uid == newest
        assert [c.has_class("-ended") for c in cards(app)] == [True, False, False]


async def test_D_closes_every_card(service):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        for n in range(4):
            await ring_in(f"035700100{n}")
        assert await wait_for(pilot, lambda: len(cards(app)) == 3 and len(app.desk_phone.session.rings) == 4)
        assert "D close all" in card_text(app)
        await pilot.press("f9", "D")
        assert await wait_for(pilot, lambda: not cards(app))
        assert app.desk_phone.session.rings == ()


async def test_at_80_columns_two_whole_cards_and_plus_one(service):
    app = desk_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await feed_ready(pilot, "ring")
        for n in range(3):
            await ring_in(f"035700100{n}", display_name="株式会社サンプル商事", line="受付デスク 201")
        assert await wait_for(pilot, lambda: len(app.desk_phone.session.rings) == 3 and len(cards(app)) == 2)
        await pilot.pause()
        more = app.screen.query_one("#ring-more-calls")
        assert more.display and "+1" in "".join(painted(app, more.region))
        for card in cards(app):  # each whole: its bottom border and its last key hint painted
            assert painted(app, card.region)[-1].startswith("╰")
        assert card_text(app).count("d close") == 2 and card_text(app).count("D close all") == 2
        for card in cards(app):  # the header's parts as many as fit, each whole (the line was cut mid-name)
            parts = "".join(painted(app, card.query_one("#ring-head").region)).rstrip().split(" · ")
            assert parts[0] == "Ringing" and len(parts) >= 2, parts
            assert parts[2:] == ["line 受付デスク 201", "ring"][:len(parts) - 2], parts
        await pilot.resize_terminal(120, 36)
        assert await wait_for(pilot, lambda: len(cards(app)) == 3 and not more.display)


async def test_the_message_dialog_says_a_ring_card_keeps_the_message_only_on_the_card(service):
    app = desk_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await feed_ready(pilot, "ring")
        await ring_in("0357001000")
        assert await wait_for(pilot, lambda: cards(app))
        await pilot.press("f9", "m")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MessageSlipForm")
        await pilot.pause()
        painted = "".join(ch for ch in screen_text(app) if ch not in "│ \n")  # the dialog's lines, wrapped or not
        assert "Thenote:callsfrom`corpdirring`arenotrecorded:itstaysonthiscardonly." in painted
        assert "withthecallrecord" not in painted
        assert "Esccancels" in painted  # the hint whole at 80 columns


async def test_the_message_dialog_of_a_recorded_call_says_it_goes_with_the_call_record(service):
    port, app = yealink_desk(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk phone")
        async with httpx.AsyncClient() as phone:
            assert (await phone.get(yealink_url(port, "incoming", "0357001000"))).status_code == 200
        assert await wait_for(pilot, lambda: cards(app))
        await pilot.press("f9", "m")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MessageSlipForm")
        await pilot.pause()
        painted = "".join(ch for ch in screen_text(app) if ch not in "│ \n")
        assert "Thenote:savedwiththecallrecordwhenthecallends(heldinthelocalqueuewhiletheserviceisaway)." in painted


async def test_a_long_phone_status_is_cut_and_synced_stays_on_the_line(service):
    name = "reception desk soft phone on the second floor behind the glass door"
    app = desk_app(service, feeds=[{"kind": "baresip", "name": name, "host": "127.0.0.1", "port": 9}])
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: app.desk_phone.session.hub is not None and app.desk_phone.session.hub.status[name].state == "reconnecting", tries=500)
        bar = app.screen.query_one(StatusBar)
        bar.refresh_text()
        await pilot.pause()
        [line] = [line for line in screen_text(app).splitlines() if "reconnect" in line or "…" in line and "synced" in line]
        assert "synced" in line and "…" in line


async def test_arrows_on_a_card_reach_the_calls_behind_plus_n_and_a_new_call_comes_first(service):
    """Three calls at 80 columns: two cards and "+1"; → from the second card scrolls the
    band to the third call (focused, "<" says calls are before it), ← back; a call that
    comes in while the band is scrolled is shown at once, the newest first."""
    app = desk_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await feed_ready(pilot, "ring")
        for n in range(3):
            await ring_in(f"035700100{n}")
        assert await wait_for(pilot, lambda: len(app.desk_phone.session.rings) == 3 and len(cards(app)) == 2)
        calls = [ring.uid for ring in app.desk_phone.session.rings]  # newest first
        shown = lambda: [card.ring.uid for card in cards(app)]  # noqa: E731 - left to right
        focused = lambda: getattr(app.focused, "ring", None) and app.focused.ring.uid  # noqa: E731
        more = app.screen.query_one("#ring-more-calls")
        await pilot.press("f9")
        assert await wait_for(pilot, lambda: focused() == calls[0])
        await pilot.press("right")
        assert await wait_for(pilot, lambda: focused() == calls[1]) and shown() == calls[:2]
        await pilot.press("right")
        assert await wait_for(pilot, lambda: shown() == calls[1:] and focused() == calls[2])
        await pilot.pause()
        assert "".join(painted(app, more.region)).split() == ["+1", "<"]
        await pilot.press("right")  # the oldest: nothing behind it
        await pilot.pause()
        assert shown() == calls[1:] and focused() == calls[2]
        await pilot.press("left", "left")
        assert await wait_for(pilot, lambda: shown() == calls[:2] and focused() == calls[0])
        await pilot.pause()
        assert "".join(painted(app, more.region)).split() == ["+1", ">"]
        await pilot.press("right", "right")
        assert await wait_for(pilot, lambda: shown() == calls[1:])
        await ring_in("0357001009")
        assert await wait_for(pilot, lambda: len(app.desk_phone.session.rings) == 4)
        newest = app.desk_phone.session.rings[0].uid
        assert await wait_for(pilot, lambda: shown() == [newest, calls[0]])
