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


def send_raw(port: int, request: bytes) -> bytes:
    """``request`` byte for byte over TCP, as a phone's HTTP client writes it; the answer."""
    import socket

    chunks = []
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(request)
        try:
            while chunk := sock.recv(4096):
                chunks.append(chunk)
        except ConnectionResetError:  # closed with our bytes unread: the answer is what came before
            pass
    return b"".join(chunks)


async def test_raw_utf8_and_a_raw_plus_as_the_phones_send_them_pop_the_caller(service):
    """Yealink and Snom put $display_remote and $remote into the URL unencoded: a name in
    raw UTF-8 with a space, a number with a raw '+' (h11 and httptools both answer 400)."""
    import asyncio

    port, app = yealink_desk(service)
    yealink = (f"GET /{TOKEN}/incoming?remote=+81312340000&call_id=88&active_user=201&display_name=山田 太郎 HTTP/1.1\r\n"
               "Host: 192.0.2.10:8765\r\nConnection: close\r\n\r\n").encode()
    snom = (f"GET /{TOKEN}/connected?remote=sip:+81312340000@pbx.example&call_id=88&display_name=山田 太郎 HTTP/1.0\r\n"
            "Host: 192.0.2.10\r\nUser-Agent: snomD785/10.1\r\n\r\n").encode()
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk phone")
        assert (await asyncio.to_thread(send_raw, port, yealink)).startswith(b"HTTP/1.1 200 OK\r\n")
        assert await wait_for(pilot, lambda: "山田 太郎" in card_text(app))
        [card] = cards(app)
        assert (card.ring.event.number, card.ring.event.display_name) == ("+81312340000", "山田 太郎")
        assert (await asyncio.to_thread(send_raw, port, snom)).startswith(b"HTTP/1.1 200 OK\r\n")
        assert await wait_for(pilot, lambda: "On the line" in card_text(app))
        assert len(cards(app)) == 1


async def test_a_bad_method_an_overlong_head_and_a_stray_byte_are_answered_and_the_feed_goes_on(service):
    import asyncio

    port, app = yealink_desk(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk phone")
        put = await asyncio.to_thread(send_raw, port, f"PUT /{TOKEN}/incoming?remote=1 HTTP/1.1\r\n\r\n".encode())
        assert put.startswith(b"HTTP/1.1 405 ")
        huge = await asyncio.to_thread(send_raw, port, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n")
        assert huge == b""  # closed unanswered
        stray = f"GET /{TOKEN}/incoming?remote=0312340001&display_name=\xff\xfe HTTP/1.1\r\n\r\n".encode("latin-1")
        assert (await asyncio.to_thread(send_raw, port, stray)).startswith(b"HTTP/1.1 200 OK\r\n")
        assert await wait_for(pilot, lambda: "03-1234-0001" in card_text(app))
        assert cards(app)[0].ring.event.display_name == "\ufffd\ufffd"
