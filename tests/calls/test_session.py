"""The call session without a screen: a feed's event in, the calls on show (who is
calling, the call's latest state, the message taken) and the recorder's queue out, as a
front end would hear them through the session's observer. Real parts: the reference
server in-process (the synced demo tenant), a Yealink's action-URL GETs over 127.0.0.1,
`corpdir ring` over the ring socket."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from calls.test_action_url import TOKEN, yealink_url
from corpdir.calls.events import CallState
from corpdir.calls.ring_socket import ring
from corpdir.calls.session import CallSession, Ring
from corpdir.config import CallsConfig
from corpdir.phone import digits
from corpdir.service.calls import CallDesk
from sip_helpers import free_port


class Watcher:
    """A front end as the session sees it: every change of the calls on show, in order."""

    def __init__(self) -> None:
        self.shown: asyncio.Queue[tuple[Ring, ...]] = asyncio.Queue()
        self.feed_news: asyncio.Queue[None] = asyncio.Queue()

    def rings_changed(self, rings: tuple[Ring, ...]) -> None:
        self.shown.put_nowait(rings)

    def feeds_changed(self) -> None:
        self.feed_news.put_nowait(None)


async def started(service, watcher: Watcher, *, queue=None, **calls) -> CallSession:
    """A session on ``calls`` whose feeds are all connected."""
    calls.setdefault("ring_socket", True)  # the desk asks for `corpdir ring`
    session = CallSession(CallDesk(service), CallsConfig(**calls), watcher, queue=queue)
    await session.start()
    while any(status.state != "connected" for status in session.hub.status.values()):
        await watcher.feed_news.get()
    return session


def desk_phone(port: int) -> dict[str, str]:
    return {"kind": "action_url", "name": "desk phone", "listen": f"127.0.0.1:{port}", "token": TOKEN}


async def test_a_desk_call_is_shown_with_its_caller_and_message_then_recorded_once(service, demo_user, tmp_path):
    port, number = free_port(), digits(demo_user.phoneNum)
    watcher = Watcher()
    session = await started(service, watcher, queue=tmp_path / "queue.json", feeds=[desk_phone(port)], ring_socket=False)
    try:
        async with httpx.AsyncClient() as phone:
            assert (await phone.get(yealink_url(port, "incoming", number))).status_code == 200
            [rang] = await watcher.shown.get()
            assert rang.caller.record.userId == demo_user.userId and rang.caller.name == demo_user.fullname
            assert (rang.event.state, rang.event.line, rang.event.display_name) == (CallState.RINGING, "201", "山田 太郎")

            await session.take_message(rang, "折り返し希望")  # while it rings: kept for the record
            [noted] = await watcher.shown.get()
            assert noted.note == "折り返し希望"
            assert (await phone.get(yealink_url(port, "established", number))).status_code == 200
            [answered] = await watcher.shown.get()
            assert answered.event.state is CallState.ANSWERED
            assert (answered.uid, answered.note, answered.caller) == (rang.uid, "折り返し希望", rang.caller)  # one call, one ring
            assert (await phone.get(yealink_url(port, "terminated", number))).status_code == 200
            [ended] = await watcher.shown.get()
        assert ended.event.state is CallState.ENDED and ended.uid == rang.uid
        queued = session.recorder.entries[ended.event.key]  # on disk before anything is sent
        assert (queued.from_num, queued.answered, queued.note) == (number, True, "折り返し希望")
        await session.recorder.flush()  # waits for the send the end of the call started, or makes it
        assert session.recorder.entries[ended.event.key].sent and not session.recorder.queued
    finally:
        await session.stop()
    records = [r for r in await service.calls.refresh("incoming") if r.fromNum == number]
    assert [(r.answered, r.note) for r in records] == [(True, "折り返し希望")]


async def test_calls_stack_newest_first_a_withheld_one_is_unknown_and_a_dismissed_one_leaves(service, demo_user):
    watcher = Watcher()
    session = await started(service, watcher)  # `corpdir ring` only: it never records
    try:
        await asyncio.to_thread(ring, {"number": demo_user.phoneNum})
        [first] = await watcher.shown.get()
        await asyncio.to_thread(ring, {"number": ""})
        withheld, again = await watcher.shown.get()
        assert again == first
        assert not withheld.caller.known and withheld.event.number == ""
        session.dismiss(withheld)
        assert await watcher.shown.get() == (first,) == session.rings
        assert session.recorder is None
    finally:
        await session.stop()


@pytest.mark.parametrize("kiosk", [True, False], ids=["kiosk", "desk"])
async def test_a_kiosk_session_records_nothing(service, tmp_path, kiosk):
    port = free_port()
    queue = None if kiosk else tmp_path / "queue.json"
    watcher = Watcher()
    session = await started(service, watcher, queue=queue, feeds=[desk_phone(port)], ring_socket=False)
    try:
        async with httpx.AsyncClient() as phone:
            for event in ("incoming", "terminated"):
                assert (await phone.get(yealink_url(port, event, "0312345670"))).status_code == 200
                [shown] = await watcher.shown.get()
        assert shown.event.state is CallState.ENDED and not shown.caller.known
        assert (session.recorder is None) is kiosk
        assert (tmp_path / "queue.json").exists() is not kiosk
    finally:
        await session.stop()
