"""Putting an Asterisk call through from the card: the AMI replay server (calls/ami/
desk_ringing.ami: the desk, PJSIP/201, rings and nothing more happens) receives a
BlindTransfer of the desk's channel. The card offers no announced transfer: the manager
feed does not implement one (docs/calls.md)."""

from __future__ import annotations

from ami_replay import AmiReplay
from call_helpers import card_text, desk_app, feed_ready
from calls.test_ami import ami_feed
from corpdir.phone import digits
from tui_helpers import wait_for


async def test_t_on_a_ringing_asterisk_call_sends_a_blind_transfer_of_the_desks_channel(service, demo_user):
    asterisk = await AmiReplay("desk_ringing.ami", "corpdir", "s3cret", CALLER=digits(demo_user.phoneNum),
                               CALLER_NAME="ヤマダ タロウ").start()
    try:
        app = desk_app(service, feeds=[ami_feed(asterisk)])
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "pbx")
            assert await wait_for(pilot, lambda: "Ringing" in card_text(app), tries=500)
            keys = " ".join(card_text(app).split())
            assert "t put through" in keys and "T announce" not in keys
            await pilot.press("f9", "t")
            assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TransferPicker")
            await pilot.press(*"２０３", "enter")
            assert await wait_for(pilot, lambda: any(a.get("Action") == "BlindTransfer" for a in asterisk.actions),
                                  tries=500)
            [transfer] = [a for a in asterisk.actions if a.get("Action") == "BlindTransfer"]
            assert (transfer["Channel"], transfer["Exten"], transfer["Context"]) == \
                ("PJSIP/201-00000042", "203", "from-internal")  # the desk's leg, the number folded
    finally:
        await asterisk.stop()
