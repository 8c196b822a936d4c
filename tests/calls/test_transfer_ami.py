"""Putting an Asterisk call through from the card, against the AMI replay server: blind
(calls/ami/desk_ringing.ami: the desk, PJSIP/201, rings) is a BlindTransfer of the desk's
channel; announced (desk_answered.ami, then what Asterisk 18 does after the Atxfer:
atxfer_answered.ami, 203 rings and answers; atxfer_declined.ami, 203 rejects the call;
atxfer_completed.ami after the desk hangs up) is an Atxfer, completed by hanging the
desk's channel up, abandoned by hanging up the Local channel that calls the target."""

from __future__ import annotations

from contextlib import asynccontextmanager

from ami_replay import AmiReplay
from call_helpers import card_text, desk_app, feed_ready
from calls.test_ami import ami_feed, ringing_at_the_desk
from corpdir.phone import digits
from tui_helpers import Notifications, wait_for


async def test_t_on_a_ringing_asterisk_call_sends_a_blind_transfer_of_the_desks_channel(service, demo_user):
    async with ringing_at_the_desk(service, demo_user) as (asterisk, app, pilot):
        keys = " ".join(card_text(app).split())
        assert "t put through" in keys and "T announce" not in keys  # Atxfer once the desk has answered
        await pilot.press("f9", "t")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TransferPicker")
        await pilot.press(*"２０３", "enter")
        assert await wait_for(pilot, lambda: any(a.get("Action") == "BlindTransfer" for a in asterisk.actions),
                              tries=500)
        [transfer] = [a for a in asterisk.actions if a.get("Action") == "BlindTransfer"]
        assert (transfer["Channel"], transfer["Exten"], transfer["Context"]) == \
            ("PJSIP/201-00000042", "203", "from-internal")  # the desk's leg, the number folded


async def announce_to_203(pilot, app, *, stays: bool = True) -> None:
    """T on the card of the answered call, 203 typed in the picker: Announcing on show
    (``stays``), else the picker and Announcing both gone."""
    assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
    assert "T announce" in " ".join(card_text(app).split())  # Asterisk's Atxfer: the card offers it
    await pilot.press("f9", "T")
    assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TransferPicker")
    await pilot.press(*"２０３", "enter")
    shows = {"Announcing"} if stays else {app.screen_stack[0].__class__.__name__}
    assert await wait_for(pilot, lambda: app.screen.__class__.__name__ in shows, tries=500), app.screen_stack


def sent(asterisk, action: str) -> list[dict[str, str]]:
    return [a for a in asterisk.actions if a.get("Action") == action]


@asynccontextmanager
async def announced(service, demo_user, *, stays: bool = True, **after: str):  # noqa: ANN201
    """The desk app on the replay of calls/ami/desk_answered.ami (the desk, PJSIP/201, has
    answered the caller; ``after``: what Asterisk does after an action, atxfer_*.ami), T
    pressed on the card and 203 picked: yields (pilot, the replay server, the notices)."""
    asterisk = await AmiReplay("desk_answered.ami", "corpdir", "s3cret", after=after,
                               CALLER=digits(demo_user.phoneNum), CALLER_NAME="ヤマダ タロウ").start()
    notes = Notifications()
    try:
        app = desk_app(service, feeds=[ami_feed(asterisk)])
        async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
            assert await feed_ready(pilot, "pbx")
            await announce_to_203(pilot, app, stays=stays)
            yield pilot, asterisk, notes
    finally:
        await asterisk.stop()


async def test_T_sends_atxfer_and_c_completes_by_hanging_the_desks_channel_up(service, demo_user):
    async with announced(service, demo_user, Atxfer="atxfer_answered.ami", Hangup="atxfer_completed.ami") \
            as (pilot, asterisk, notes):
        [atxfer] = sent(asterisk, "Atxfer")
        assert (atxfer["Channel"], atxfer["Exten"], atxfer["Context"]) == ("PJSIP/201-00000042", "203", "from-internal")
        assert sent(asterisk, "Hangup") == []  # the caller is held while the desk speaks to 203
        await pilot.press("c")
        assert await wait_for(pilot, lambda: notes.said("through to 203"), tries=500), notes.messages
        assert [a["Channel"] for a in sent(asterisk, "Hangup")] == ["PJSIP/201-00000042"]
        assert await wait_for(pilot, lambda: "Call ended" in card_text(pilot.app), tries=500)


async def test_r_hangs_up_the_local_channel_that_calls_the_target(service, demo_user):
    async with announced(service, demo_user, Atxfer="atxfer_answered.ami") as (pilot, asterisk, notes):
        await pilot.press("r")
        assert await wait_for(pilot, lambda: notes.said("back with"), tries=500), notes.messages
        assert [a["Channel"] for a in sent(asterisk, "Hangup")] == ["Local/203@from-internal-0000000b;1"]
        assert "On the line" in card_text(pilot.app)  # the desk's own channel stays up, with the caller


async def test_the_announce_screen_closes_by_itself_when_the_target_declines(service, demo_user):
    # 203 rejects the call: Announcing comes and goes by itself, the desk is back with the caller
    async with announced(service, demo_user, stays=False, Atxfer="atxfer_declined.ami") as (pilot, asterisk, notes):
        assert await wait_for(pilot, lambda: notes.said("203 declined or did not answer (Call Rejected): back with "),
                              tries=500), notes.messages
        assert sent(asterisk, "Hangup") == []  # Asterisk has put the desk back: nothing hung up, no one lost
        assert "On the line" in card_text(pilot.app)
