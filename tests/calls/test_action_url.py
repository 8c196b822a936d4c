"""A desk phone's action URL: the GETs a Yealink sends (Features > Action URL, with
$remote, $call_id, $active_user, $display_remote filled in) pop the caller and, when the
call ends, record it; a wrong token or another path is refused and shows nothing."""

from __future__ import annotations

import httpx

from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.phone import digits
from sip_helpers import free_port
from tui_helpers import wait_for

TOKEN = "k3Yp9-desk-7Q"


def yealink_url(port: int, event: str, number: str, token: str = TOKEN) -> str:
    # Yealink fills in sip URIs' user parts: $remote is the caller's number as it rang.
    return (f"http://127.0.0.1:{port}/{token}/{event}?remote={number}&call_id=1772&active_user=201"
            "&display_name=%E5%B1%B1%E7%94%B0%20%E5%A4%AA%E9%83%8E")


def yealink_desk(service):  # noqa: ANN001, ANN201 - the service fixture; (port, a CorpdirApp)
    """The desk's TUI listening for a Yealink's action URLs on a free port."""
    port = free_port()
    return port, desk_app(service, feeds=[{"kind": "action_url", "name": "desk phone", "listen": f"127.0.0.1:{port}",
                                           "token": TOKEN}])


async def test_yealink_gets_pop_the_caller_and_the_call_is_recorded(service, demo_user):
    port, app = yealink_desk(service)
    number = digits(demo_user.phoneNum)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk phone")
        async with httpx.AsyncClient() as phone:
            answer = await phone.get(yealink_url(port, "incoming", number))
            assert answer.status_code == 200
            assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app))
            [card] = cards(app)
            assert card.ring.event.display_name == "山田 太郎" and "line 201" in card_text(app)
            assert (await phone.get(yealink_url(port, "established", number))).status_code == 200
            assert await wait_for(pilot, lambda: "On the line" in card_text(app))
            assert (await phone.get(yealink_url(port, "terminated", number))).status_code == 200
            assert await wait_for(pilot, lambda: "Call ended" in card_text(app))
        recorder = app.desk_phone.session.recorder
        assert await wait_for(pilot, lambda: recorder.entries and not recorder.queued, tries=500)
    assert [r.answered for r in await service.calls.refresh("incoming") if r.fromNum == number] == [True]


async def test_a_wrong_token_or_path_is_refused_and_pops_nothing(service, demo_user):
    port, app = yealink_desk(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk phone")
        async with httpx.AsyncClient() as phone:
            wrong = await phone.get(yealink_url(port, "incoming", digits(demo_user.phoneNum), token="guess"))
            other = await phone.get(f"http://127.0.0.1:{port}/")
            odd = await phone.get(f"http://127.0.0.1:{port}/{TOKEN}/reboot?remote=1")
            assert (wrong.status_code, other.status_code, odd.status_code) == (403, 403, 400)
            # the feed still works after all that
            assert (await phone.get(yealink_url(port, "incoming", "0312340000"))).status_code == 200
        assert await wait_for(pilot, lambda: "Unknown number" in card_text(app))
        [card] = cards(app)
        assert card.ring.event.number == "0312340000" and "03-1234-0000" in card_text(app)


async def test_the_end_of_a_call_whose_start_was_not_seen_is_shown_as_unknown_and_not_recorded(service, demo_user):
    """A desk started mid-call hears only 'terminated': whether it was answered and when it
    rang are unknown, so it is neither recorded as missed 0 s at its end nor dropped
    silently: the card says so and the queue keeps it for `corpdir doctor`."""
    port, app = yealink_desk(service)
    number = digits(demo_user.phoneNum)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk phone")
        async with httpx.AsyncClient() as phone:
            assert (await phone.get(yealink_url(port, "terminated", number))).status_code == 200
        assert await wait_for(pilot, lambda: "outcome unknown: not recorded" in card_text(app))
        assert "missed" not in card_text(app)
        recorder = app.desk_phone.session.recorder
        [notice] = recorder.unknown
        assert (notice.key, notice.from_num, notice.reason) == ("desk phone:1772", number, "unknown outcome")
        assert recorder.entries == {}
    assert [r for r in await service.calls.refresh("incoming") if r.fromNum == number] == []
