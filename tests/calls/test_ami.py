"""Asterisk AMI: a server speaking the manager protocol replays a recorded transcript
(calls/ami/desk_call.ami: the desk, PJSIP/201, is rung by a demo user's number, answers
after 3 s, hangs up 42 s later; extension 202 gets a call of its own; one DialBegin to
201 lacks its DestUniqueid). The desk sees only its own call, pops the caller, and the
call is recorded (H2) with the transcript's duration and ringing time."""

from __future__ import annotations

from contextlib import asynccontextmanager
from datetime import datetime, timezone

import pytest

from ami_replay import AmiReplay
from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.phone import digits
from corpdir.tui.widgets.status_bar import StatusBar
from tui_helpers import screen_text, wait_for

RANG_AT = datetime.fromtimestamp(1763872800.204511, timezone.utc)  # the DialBegin's Timestamp


@pytest.fixture
async def asterisk(demo_user):
    server = await AmiReplay("desk_call.ami", "corpdir", "s3cret", CALLER=digits(demo_user.phoneNum),
                             CALLER_NAME="ヤマダ タロウ").start()
    yield server
    await server.stop()


def ami_feed(asterisk, **extra):
    return {"kind": "ami", "name": "pbx", "port": asterisk.port, "username": "corpdir", "secret": "s3cret",
            "extension": "201", **extra}


async def test_the_desks_call_pops_up_and_is_recorded_with_the_transcripts_duration(service, demo_user, asterisk):
    app = desk_app(service, feeds=[ami_feed(asterisk)])
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "pbx")
        assert await wait_for(pilot, lambda: "Call ended" in card_text(app), tries=500)
        [card] = cards(app)  # 202's call is not the desk's
        assert card.ring.caller.record.userId == demo_user.userId
        assert demo_user.fullname in card_text(app) and "line 201" in card_text(app)
        assert "answered, 0:42" in card_text(app)
        assert app.desk_phone.session.hub.status["pbx"].skipped == 1  # the DialBegin without DestUniqueid
        recorder = app.desk_phone.session.recorder
        assert await wait_for(pilot, lambda: recorder.entries and not recorder.queued, tries=500)
    [record] = [r for r in await service.calls.refresh("incoming") if r.fromNum == digits(demo_user.phoneNum)]
    assert record.answered is True and record.duration == 42
    assert abs((record.calledAt - RANG_AT).total_seconds()) < 1


async def test_a_dropped_manager_connection_is_said_and_reconnected(service, asterisk):
    app = desk_app(service, feeds=[ami_feed(asterisk)])
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "pbx")
        bar = app.screen.query_one(StatusBar)
        said: list[str] = []  # every text the status bar is given: the reconnect is quick, a look could miss it
        show = bar.update
        bar.update = lambda text, **options: (said.append(str(text)), show(text, **options))[1]
        asterisk.drop()
        assert await wait_for(pilot, lambda: asterisk.logins == 2, tries=500)
        assert await feed_ready(pilot, "pbx")
        assert any("phone: pbx: reconnecting in" in text and "(connection closed)" in text for text in said), said
        assert "reconnecting" not in said[-1] and "phone: pbx" in said[-1]


async def test_wrong_secret_is_a_reconnecting_feed_not_a_crash(service, asterisk):
    app = desk_app(service, feeds=[ami_feed(asterisk, secret="wrong")])
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: app.desk_phone.session.hub is not None and app.desk_phone.session.hub.status["pbx"].state == "reconnecting", tries=500)
        assert "login refused" in app.desk_phone.session.hub.status["pbx"].error
        app.screen.query_one("StatusBar").refresh_text()
        await pilot.pause()
        assert "pbx: reconnecting" in screen_text(app)


async def test_call_back_originates_from_the_desk_phone(service, demo_user, asterisk):
    dialer = {"kind": "ami", "port": asterisk.port, "username": "corpdir", "secret": "s3cret", "channel": "PJSIP/201"}
    app = desk_app(service, feeds=[ami_feed(asterisk)], dialer=dialer)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, lambda: bool(cards(app)), tries=500)
        await pilot.press("f9", "b")
        assert await wait_for(pilot, lambda: any(a.get("Action") == "Originate" for a in asterisk.actions), tries=500)
        [originate] = [a for a in asterisk.actions if a.get("Action") == "Originate"]
        assert originate["Channel"] == "PJSIP/201" and originate["Exten"] == digits(demo_user.phoneNum)


@asynccontextmanager
async def ringing_at_the_desk(service, demo_user):
    """calls/ami/desk_ringing.ami replayed (the desk, PJSIP/201, rings and nothing more
    happens) and the desk's app with the call's card up: (asterisk, app, pilot)."""
    asterisk = await AmiReplay("desk_ringing.ami", "corpdir", "s3cret", CALLER=digits(demo_user.phoneNum),
                               CALLER_NAME="ヤマダ タロウ").start()
    try:
        app = desk_app(service, feeds=[ami_feed(asterisk)])
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "pbx")
            assert await wait_for(pilot, lambda: "Ringing" in card_text(app), tries=500)
            yield asterisk, app, pilot
    finally:
        await asterisk.stop()


async def test_a_ringing_call_is_hung_up_from_the_card_by_a_hangup_of_the_desks_channel(service, demo_user):
    """`h` sends Hangup for the desk's channel over the feed's manager connection. No `a`:
    the manager cannot take a SIP handset off-hook."""
    async with ringing_at_the_desk(service, demo_user) as (asterisk, app, pilot):
        assert "h hang up" in card_text(app) and "a answer" not in card_text(app)
        await pilot.press("f9", "h")
        assert await wait_for(pilot, lambda: any(a.get("Action") == "Hangup" for a in asterisk.actions), tries=500)
        [hangup] = [a for a in asterisk.actions if a.get("Action") == "Hangup"]
        assert hangup["Channel"] == "PJSIP/201-00000042"  # the desk's leg, not the caller's trunk


async def test_a_call_up_when_the_desk_connects_is_read_from_core_show_channels(service, demo_user):
    """calls/ami/desk_up.ami: the desk's channel (PJSIP/201) has been up 30 s with a demo
    user on its connected line when the feed logs in (the trunk's leg and extension 202's
    ringing channel are listed too). The card shows the call on the line from then, and `h`
    hangs up the desk's channel it learnt from the list."""
    from datetime import timedelta

    from corpdir.calls.events import now

    asterisk = await AmiReplay("quiet.ami", "corpdir", "s3cret", channels="desk_up.ami",
                               CALLER=digits(demo_user.phoneNum), CALLER_NAME="ヤマダ タロウ").start()
    try:
        before = now()
        app = desk_app(service, feeds=[ami_feed(asterisk)])
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "pbx")
            assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
            [card] = cards(app)  # not the trunk's leg, not 202's call
            assert card.ring.caller.record.userId == demo_user.userId and card.ring.event.call_id == "1763872900.80"
            assert before - timedelta(seconds=30) <= card.ring.event.at <= now() - timedelta(seconds=30)  # its age
            await pilot.press("f9", "h")
            assert await wait_for(pilot, lambda: any(a.get("Action") == "Hangup" for a in asterisk.actions), tries=500)
            assert [a["Channel"] for a in asterisk.actions if a.get("Action") == "Hangup"] == ["PJSIP/201-00000050"]
    finally:
        await asterisk.stop()
