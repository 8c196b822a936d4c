"""baresip and the desk's calls beyond the plain ring: a call already up when the desk
starts, answering and hanging up from the card, an auto-answering account, and a second
corpdir on the same soft phone. Real baresip 1.0.0 and SIPp on 127.0.0.1; the call session
with the reference server in-process (the synced demo tenant), or the TUI under the pilot."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from call_helpers import desk_app, feed_ready
from calls.test_session import Watcher, started
from corpdir.calls.events import CallState
from corpdir.calls.feeds.baresip import send_command
from corpdir.calls.recorder import queue_path, read_queue
from corpdir.config import ServiceConfig
from corpdir.paths import data_dir
from sip_helpers import BARESIP, SIPP, TALK_SECONDS, Baresip, sipp_call
from tui_helpers import screen_text, wait_for

pytestmark = pytest.mark.skipif(not (BARESIP and SIPP), reason="baresip (baresip-core) and SIPp (sip-tester) are needed")

HERE = Path(__file__).parent


def soft_phone(baresip: Baresip) -> dict:
    return {"kind": "baresip", "name": "soft phone", "port": baresip.ctrl_port}


async def state_on_phone(baresip: Baresip, state: str) -> None:
    """Until baresip lists a call in ``state`` (nobody else holds its control connection)."""
    while state not in str((await send_command("127.0.0.1", baresip.ctrl_port, "listcalls", "")).get("data")):
        await asyncio.sleep(0.05)


async def next_state(watcher: Watcher, state: CallState):  # noqa: ANN201 - a Ring
    while True:
        rings = await watcher.shown.get()
        if rings and rings[0].event.state is state:
            return rings[0]


async def test_a_call_answered_before_the_desk_started_is_recorded_from_its_answer(service, tmp_path):
    baresip = Baresip(tmp_path / "baresip", auto_answer=True)
    watcher = Watcher()
    session = None
    try:
        caller = await sipp_call(baresip, tmp_path, "山田 太郎", "0312345601")
        await state_on_phone(baresip, "ESTABLISHED")  # up before any corpdir listens
        session = await started(service, watcher, queue=tmp_path / "queue.json", feeds=[soft_phone(baresip)],
                                ring_socket=False)
        on_line = await next_state(watcher, CallState.ANSWERED)  # read from listcalls/callstat at connect
        assert on_line.event.number == "0312345601" and on_line.event.display_name == "山田 太郎"
        assert await caller.wait() == 0
        ended = await next_state(watcher, CallState.ENDED)
        assert ended.uid == on_line.uid and ended.event.answered is True
        assert abs(ended.event.duration - TALK_SECONDS) <= 1  # from its answer, which baresip counts
        assert (ended.event.at - ended.event.rang_at).total_seconds() >= TALK_SECONDS - 1  # not "rang at its end"
        [queued] = session.recorder.entries.values()
        assert (queued.answered, queued.from_num) == (True, "0312345601")
    finally:
        if session is not None:
            await session.stop()
        baresip.stop()


async def test_a_call_ringing_when_the_desk_starts_is_answered_and_hung_up_from_the_session(service, tmp_path):
    baresip = Baresip(tmp_path / "baresip")
    watcher = Watcher()
    session = None
    try:
        caller = await sipp_call(baresip, tmp_path, "佐藤 花子", "0312345602")
        await state_on_phone(baresip, "INCOMING")
        session = await started(service, watcher, queue=tmp_path / "queue.json", feeds=[soft_phone(baresip)],
                                ring_socket=False)
        ringing = await next_state(watcher, CallState.RINGING)
        assert ringing.can_answer and ringing.event.display_name == "佐藤 花子"
        await session.answer(ringing)  # the card's `a`
        answered = await next_state(watcher, CallState.ANSWERED)
        assert answered.uid == ringing.uid and answered.can_hang_up and not answered.can_answer
        await session.hang_up(answered)  # the card's `h`, before the caller's own BYE
        ended = await next_state(watcher, CallState.ENDED)
        assert ended.event.answered is True and ended.event.duration < TALK_SECONDS
        await caller.wait()  # SIPp got the desk's BYE where its scenario meant to send one
        assert "BYE sip:" in (tmp_path / "messages.log").read_text(errors="replace").split("received")[-1]
    finally:
        if session is not None:
            await session.stop()
        baresip.stop()


async def test_an_auto_answering_account_pops_the_caller_before_the_answer(service, tmp_path):
    """baresip 1.0 sends no CALL_INCOMING for an account with answermode=auto: the pop-up
    comes at its first event (the SDP offer), and the record's calledAt is then."""
    baresip = Baresip(tmp_path / "baresip", auto_answer=True)
    watcher = Watcher()
    session = await started(service, watcher, queue=tmp_path / "queue.json", feeds=[soft_phone(baresip)],
                            ring_socket=False)
    try:
        caller = await sipp_call(baresip, tmp_path, "山田 太郎", "0312345603")
        [first] = await watcher.shown.get()
        assert first.event.state is CallState.RINGING and first.event.number == "0312345603"
        answered = await next_state(watcher, CallState.ANSWERED)
        assert answered.uid == first.uid
        assert await caller.wait() == 0
        ended = await next_state(watcher, CallState.ENDED)
        assert ended.event.rang_at == first.event.at and ended.event.answered is True
    finally:
        await session.stop()
        baresip.stop()


async def test_a_second_corpdir_on_the_same_baresip_is_refused_and_the_first_keeps_its_calls(service, tmp_path):
    from service_fixtures import LiveServer, make_server

    baresip = Baresip(tmp_path / "baresip", auto_answer=True)
    server = LiveServer(make_server())
    log = open(tmp_path / "desk.log", "wb")  # noqa: SIM115
    first = await asyncio.create_subprocess_exec(
        sys.executable, str(HERE / "desk_session.py"), server.base_url, str(baresip.ctrl_port), "0.2",
        stdout=asyncio.subprocess.PIPE, stderr=log, env=os.environ.copy())
    try:
        assert (await first.stdout.readline()).strip() == b"ready"
        app = desk_app(service, ring_socket=False, feeds=[soft_phone(baresip)])
        async with app.run_test(size=(120, 36)) as pilot:
            assert await wait_for(pilot, lambda: app.desk_phone.session.hub is not None)  # started after the first rows
            status = app.desk_phone.session.hub.status
            assert await wait_for(pilot, lambda: status["soft phone"].state == "refused", tries=500)
            assert f"phone: soft phone: refused, in use by corpdir pid {first.pid}" in screen_text(app)
            caller = await sipp_call(baresip, tmp_path, "山田 太郎", "0312345604")
            assert await caller.wait() == 0
            queue = queue_path(ServiceConfig(base_url=server.base_url, api_key="demo-reception").profile().cache_path(),
                               data_dir())

            def recorded_by_the_first() -> bool:
                try:
                    return any(p.sent and p.from_num == "0312345604" for p in read_queue(queue)[0].values())
                except (FileNotFoundError, ValueError):
                    return False

            assert await wait_for(pilot, recorded_by_the_first, tries=1000)
            assert status["soft phone"].state == "refused"  # it never took the connection
        first.terminate()
        await first.wait()
        app = desk_app(service, ring_socket=False, feeds=[soft_phone(baresip)])
        async with app.run_test(size=(120, 36)) as pilot:  # the first one gone: this one connects
            assert await feed_ready(pilot, "soft phone")
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
        log.close()
        server.stop()
        baresip.stop()


async def test_the_card_answers_with_a_and_hangs_up_with_h(service, demo_user, tmp_path):
    from call_helpers import card_text
    from corpdir.phone import digits

    baresip = Baresip(tmp_path / "baresip")
    try:
        app = desk_app(service, feeds=[soft_phone(baresip)])
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "soft phone")
            caller = await sipp_call(baresip, tmp_path, "山田 太郎", digits(demo_user.phoneNum))
            assert await wait_for(pilot, lambda: "Ringing" in card_text(app) and "a answer" in card_text(app), tries=500)
            await pilot.press("f9", "a")  # to the card, answer
            assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
            assert "a answer" not in card_text(app) and "h hang up" in card_text(app)
            await pilot.press("h")
            assert await wait_for(pilot, lambda: "Call ended" in card_text(app), tries=500)
            assert "h hang up" not in card_text(app)
            await caller.wait()
            assert "BYE sip:" in (tmp_path / "messages.log").read_text(errors="replace").split("received")[-1]
    finally:
        baresip.stop()


async def test_a_call_that_ends_while_the_desk_is_down_is_shown_as_unknown_not_lost(tmp_path):
    """baresip keeps no call log: a call answered while the desk ran, which ends after a
    SIGKILL and before the restart, cannot be recorded (its end is unknown); the restarted
    desk finds it missing from listcalls and keeps it as a notice (`corpdir doctor`)."""
    from service_fixtures import LiveServer, make_server

    baresip = Baresip(tmp_path / "baresip", auto_answer=True)
    server = LiveServer(make_server())
    queue = queue_path(ServiceConfig(base_url=server.base_url, api_key="demo-reception").profile().cache_path(),
                       data_dir())

    def queue_file():  # noqa: ANN202
        try:
            return read_queue(queue)
        except (FileNotFoundError, ValueError):
            return None

    async def desk() -> asyncio.subprocess.Process:
        with open(tmp_path / "desk.log", "ab") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable, str(HERE / "desk_session.py"), server.base_url, str(baresip.ctrl_port), "0.2",
                stdout=asyncio.subprocess.PIPE, stderr=log, env=os.environ.copy())
        assert (await process.stdout.readline()).strip() == b"ready"
        return process

    first = await desk()
    again = None
    try:
        caller = await sipp_call(baresip, tmp_path, "山田 太郎", "0312345605")
        while not ((q := queue_file()) and any(o.answered_at for o in q.open.values())):
            await asyncio.sleep(0.02)  # on disk: the call is up
        first.kill()
        await first.wait()
        assert await caller.wait() == 0  # it ends while no desk listens
        again = await desk()
        while not ((q := queue_file()) and q.unknown):
            await asyncio.sleep(0.02)
        [notice] = q.unknown
        assert notice.from_num == "0312345605" and notice.reason.startswith("ended while no corpdir listened (last answered")
        assert not q.open and not q.calls  # nothing sent for it: its duration is unknown
    finally:
        for process in (first, again):
            if process is not None and process.returncode is None:
                process.terminate()
                await process.wait()
        server.stop()
        baresip.stop()


async def test_a_call_cut_off_by_a_soft_phone_restart_ends_on_the_card_as_unknown(service, tmp_path):
    """baresip stopped under an answered call and started again: the feed reconnects, the
    call is not in listcalls any more, so the card says it ended (outcome unknown) instead
    of staying "On the line", and the desk can see it (a notice, no H2)."""
    baresip = Baresip(tmp_path / "baresip", auto_answer=True)
    watcher = Watcher()
    session = await started(service, watcher, queue=tmp_path / "queue.json", feeds=[soft_phone(baresip)],
                            ring_socket=False)
    caller = None
    try:
        caller = await sipp_call(baresip, tmp_path, "山田 太郎", "0312345606")
        on_line = await next_state(watcher, CallState.ANSWERED)
        baresip.stop()  # the call dies with it; no CALL_CLOSED reaches the feed
        baresip.start()
        ended = await next_state(watcher, CallState.ENDED)
        assert ended.uid == on_line.uid and ended.event.answered is None
        [notice] = session.recorder.unknown
        assert notice.from_num == "0312345606" and notice.reason.startswith("ended while no corpdir listened")
        assert session.recorder.entries == {}
    finally:
        await session.stop()
        if caller is not None and caller.returncode is None:
            caller.kill()
            await caller.wait()
        baresip.stop()
