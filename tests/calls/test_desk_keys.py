"""The desk view's keys (F7: b calls the person highlighted, t puts the call on the line
through to them, T announces it first) against the AMI replay server, and the transfer
picker's search by name (kana, romaji): the people found are listed free first, whatever
order the search gave them."""

from __future__ import annotations

import asyncio

import pytest

from ami_replay import AmiReplay
from call_helpers import card_text, desk_app, feed_ready
from calls.test_ami import ami_feed
from calls.test_blf_snapshots import lamp_app, replay_hints
from calls.test_transfer_ami import sent
from corpdir.calls.dialers import dial_string
from corpdir.calls.presence.lamps import Lamp
from corpdir.calls.transfer import BLIND
from corpdir.phone import digits
from corpdir.service.people_at_hand import ref_of
from sip_helpers import free_port
from tui_helpers import Notifications, listed, settle, wait_for


async def test_b_t_and_T_in_the_desk_view_call_and_put_through_to_the_person_highlighted(service, demo_user):
    asterisk = await AmiReplay("desk_answered.ami", "corpdir", "s3cret", after={"Atxfer": "atxfer_answered.ami"},
                               CALLER=digits(demo_user.phoneNum), CALLER_NAME="ヤマダ タロウ").start()
    dialer = {"kind": "ami", "port": asterisk.port, "username": "corpdir", "secret": "s3cret", "channel": "PJSIP/201"}
    try:
        app = desk_app(service, feeds=[ami_feed(asterisk)], dialer=dialer)
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "pbx")
            assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
            await settle(pilot, listed(pilot, "#users"))
            view = app.screen.query_one("#users")
            favourite = next(view.row(i) for i in range(40) if view.row(i).extensionNum)
            app.desk_phone.people.toggle_favourite(ref_of(favourite))
            await pilot.press("f7")
            assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DeskView")
            assert await wait_for(pilot, lambda: app.screen.rows, tries=300)
            [row] = app.screen.rows.values()  # the one favourite, highlighted
            assert row.user_id == favourite.userId
            extension = dial_string(favourite.extensionNum)

            await pilot.press("b")
            assert await wait_for(pilot, lambda: sent(asterisk, "Originate"), tries=500)
            assert sent(asterisk, "Originate")[0]["Exten"] == extension

            await pilot.press("t")
            assert await wait_for(pilot, lambda: sent(asterisk, "BlindTransfer"), tries=500)
            [blind] = sent(asterisk, "BlindTransfer")
            assert (blind["Channel"], blind["Exten"]) == ("PJSIP/201-00000042", extension)

            await pilot.press("T")
            assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Announcing", tries=500)
            [atxfer] = sent(asterisk, "Atxfer")
            assert (atxfer["Channel"], atxfer["Exten"]) == ("PJSIP/201-00000042", extension)
    finally:
        await asterisk.stop()


async def test_t_in_the_desk_view_without_a_call_says_so(service):
    app = desk_app(service, ring_socket=False)
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        await settle(pilot, listed(pilot, "#users"))
        view = app.screen.query_one("#users")
        app.desk_phone.people.toggle_favourite(ref_of(next(view.row(i) for i in range(40) if view.row(i).extensionNum)))
        await pilot.press("f7")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DeskView" and app.screen.rows)
        await pilot.press("t")
        assert await wait_for(pilot, lambda: notes.said("No call to put through"))


def namesakes(users, reading) -> list:  # noqa: ANN001
    """Two people with extensions whose ``reading`` ("kana" or "alphabet") shares its first
    word: a search for that word finds both."""
    by_word: dict[str, list] = {}
    for user in users:
        name = user.fullnameKana if reading == "kana" else user.fullnameAlphabet
        if user.extensionNum and name:
            by_word.setdefault(name.split()[0], []).append(user)
    return next(found for found in by_word.values() if len(found) >= 2)


@pytest.mark.parametrize("reading", ["kana", "alphabet"])
def test_the_picker_finds_people_by_kana_and_romaji_and_lists_the_free_one_first(reading, tmp_path):
    from corpdir.tui.screens.transfer_picker import TransferPicker

    port = free_port()
    app = lamp_app(tmp_path / "cache.sqlite3", port)  # fills its cache on a loop of its own

    async def search() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot, listed(pilot, "#users"))
            users = await app.service.people.window(None, limit=1000)
            pair = namesakes(users, reading)
            word = (pair[0].fullnameKana if reading == "kana" else pair[0].fullnameAlphabet).split()[0]
            _ids, found = await app.service.search.users(word, limit=50, first=50)
            found = [u for u in found if u.extensionNum]
            assert len(found) >= 2, (word, [u.fullname for u in found])
            # the search's first is on the phone, its last free: the picker turns them round
            await replay_hints(pilot, tmp_path, port, [found[-1], found[0]])  # Idle, InUse
            await app.push_screen(TransferPicker("山田 太郎", BLIND, app.desk_phone.lamps, []))
            await pilot.press(*(word.lower() if reading == "alphabet" else word))
            lamps = app.desk_phone.lamps

            def free_first() -> bool:
                rows = app.screen.rows
                return bool(rows) and rows[0].user_id == found[-1].userId and lamps.lamp(rows[0].extension) is Lamp.FREE

            assert await wait_for(pilot, free_first, tries=500), [r.name for r in app.screen.rows]
            shown = [r.user_id for r in app.screen.rows]
            assert found[0].userId in shown and shown.index(found[0].userId) > 0  # the one on the phone after
            await app.replay.stop()

    asyncio.run(search())
