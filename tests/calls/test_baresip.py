"""A real SIP call: SIPp calls a baresip soft phone (ctrl_tcp on 127.0.0.1) as a Japanese
display name from a demo user's number; the TUI pops that user up; the desk answers; the
caller hangs up after 2 s and the call is an H2 record on the reference server. And the
other way: the desk calls back through baresip and SIPp (answering) gets the INVITE."""

from __future__ import annotations

import asyncio

import pytest

from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.calls.feeds.baresip import send_command
from corpdir.phone import digits
from sip_helpers import BARESIP, SIPP, TALK_SECONDS, Baresip, sipp_answering, sipp_call
from tui_helpers import screen_text, wait_for

pytestmark = pytest.mark.skipif(not (BARESIP and SIPP), reason="baresip (baresip-core) and SIPp (sip-tester) are needed")


@pytest.fixture
def baresip(tmp_path):
    phone = Baresip(tmp_path / "baresip")
    yield phone
    phone.stop()


async def test_a_sip_call_pops_the_caller_and_is_recorded_with_its_duration(service, demo_user, baresip, tmp_path):
    number = digits(demo_user.phoneNum)
    app = desk_app(service, feeds=[{"kind": "baresip", "name": "soft phone", "port": baresip.ctrl_port}])
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "soft phone")
        caller = await sipp_call(baresip, tmp_path, "山田 太郎", number)
        assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app), tries=500)
        [card] = cards(app)
        assert card.ring.event.display_name == "山田 太郎" and card.ring.event.line == "desk"
        assert card.ring.caller.record.userId == demo_user.userId and card.ring.caller.matched_field == "phone"
        assert "Ringing" in card_text(app)
        answer = await send_command("127.0.0.1", baresip.ctrl_port, "accept", "")  # the receptionist answers
        assert answer["ok"], answer
        assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
        assert await caller.wait() == 0  # SIPp: answered, talked, hung up, BYE answered
        assert await wait_for(pilot, lambda: "Call ended" in card_text(app), tries=500)
        recorder = app.desk_phone.session.recorder
        assert await wait_for(pilot, lambda: recorder.entries and not recorder.queued, tries=500)
    records = await service.calls.refresh("incoming")
    mine = [r for r in records if r.fromNum == number]
    assert len(mine) == 1
    assert mine[0].answered is True and abs(mine[0].duration - TALK_SECONDS) <= 1


async def test_call_back_dials_through_baresip_and_the_far_end_sees_the_number(service, demo_user, baresip, tmp_path):
    far_end, port = await sipp_answering(tmp_path)
    try:
        app = desk_app(service, dialer={"kind": "baresip", "port": baresip.ctrl_port, "domain": f"127.0.0.1:{port}"})
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "ring")
            from corpdir.calls.ring_socket import ring

            await asyncio.to_thread(ring, {"number": demo_user.phoneNum})
            assert await wait_for(pilot, lambda: bool(cards(app)))
            await pilot.press("f9", "b")  # to the pop-up, then call back
            log = tmp_path / "uas.log"
            wanted = f"INVITE sip:{digits(demo_user.phoneNum)}@127.0.0.1:{port}"
            assert await wait_for(pilot, lambda: log.exists() and wanted in log.read_text(errors="replace"), tries=500)
            await send_command("127.0.0.1", baresip.ctrl_port, "hangup", "")
    finally:
        if far_end.returncode is None:
            far_end.terminate()
        await far_end.wait()


async def test_a_soft_phone_that_stops_is_on_the_status_bar_retried_ever_slower_and_reconnected(service, baresip):
    """No status bar refresh by hand: the bar follows the feed, and at 80 columns says it
    first. While baresip is down the
    waits between attempts double (with jitter); once it is back the feed connects again,
    and the next drop starts from the shortest wait."""
    app = desk_app(service, ring_socket=False, feeds=[{"kind": "baresip", "name": "soft phone", "port": baresip.ctrl_port}])
    async with app.run_test(size=(80, 24)) as pilot:  # the narrowest bar: the news must not be cut off
        assert await feed_ready(pilot, "soft phone")
        assert await wait_for(pilot, lambda: "phone: soft phone" in screen_text(app))
        status = app.desk_phone.session.hub.status
        baresip.stop()
        waits: list[float] = []

        def four_waits_seen() -> bool:
            if status["soft phone"].state == "reconnecting" and status["soft phone"].retry_in not in waits:
                waits.append(status["soft phone"].retry_in)
            return len(waits) >= 4

        assert await wait_for(pilot, four_waits_seen, tries=1000)
        shown = screen_text(app)  # 80 columns: cut so that "synced" and the tokens stay on the line
        assert "phone: soft phone: reconnec" in shown and "… · synced just now · tokens" in " ".join(shown.split())
        await pilot.resize_terminal(120, 36)  # room for all of it
        assert await wait_for(pilot, lambda: "phone: soft phone: reconnecting in" in screen_text(app)
                              and "(connection refused)" in screen_text(app))
        first, *later = waits  # the drop of a connected feed, then three refused attempts
        assert first <= 0.5 and later == sorted(later) and later[-1] > 2 * later[0] * 0.8
        baresip.start()  # the soft phone is back on its port
        assert await feed_ready(pilot, "soft phone")
        assert await wait_for(pilot, lambda: "reconnecting" not in screen_text(app) and "phone: soft phone" in screen_text(app))
        baresip.stop()
        assert await wait_for(pilot, lambda: status["soft phone"].state == "reconnecting", tries=500)
        assert status["soft phone"].retry_in <= 0.5  # it had connected: back to the first wait
