"""Exactly one record per call, whatever kills the desk: a real call (SIPp -> baresip,
auto-answered, 2 s talk) recorded by the call session in a process of its own, which is
killed by SIGKILL or SIGHUP (a closed terminal) at each step of the send; restarted, it
must find the call's record on the service (H1) rather than send it again.

The service is the reference server under uvicorn behind a fault proxy (tests/fault_proxy.py):
away (nothing listens), holding the request (it never reaches the service), dropping the
answer (the record is written, the desk never hears so), or passing (the answer arrives)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from corpdir.calls.recorder import Pending, queue_path, read_queue
from corpdir.config import ServiceConfig
from corpdir.paths import data_dir
from fault_proxy import FaultProxy
from service_fixtures import LiveServer, make_server, make_service
from sip_helpers import BARESIP, SIPP, TALK_SECONDS, Baresip, free_port, sipp_call

pytestmark = pytest.mark.skipif(not (BARESIP and SIPP), reason="baresip (baresip-core) and SIPp (sip-tester) are needed")

HERE = Path(__file__).parent


async def until(condition, tries: int = 3000) -> bool:  # noqa: ANN001 - a callable
    """Waits (bounded, in small steps) for ``condition()``: no fixed sleep stands for an event."""
    for _ in range(tries):
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


class Desk:
    """The recording process: started, killed, restarted on the same queue."""

    def __init__(self, base_url: str, baresip: Baresip, folder: Path) -> None:
        self.base_url, self.baresip, self.folder = base_url, baresip, folder
        settings = ServiceConfig(base_url=base_url, api_key="demo-reception")
        self.queue = queue_path(settings.profile().cache_path(), data_dir())
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        log = open(self.folder / "desk.log", "ab")  # noqa: SIM115 - handed to the child
        # SIGHUP as under a terminal: a test run started by nohup would pass its SIG_IGN on,
        # and the desk would outlive the closed terminal this test stands for
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "desk_session.py"), self.base_url, str(self.baresip.ctrl_port), "0.2",
            stdout=asyncio.subprocess.PIPE, stderr=log, env=os.environ.copy(),
            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
        log.close()
        assert (await self.process.stdout.readline()).decode().strip() == "ready"

    def calls(self) -> list[Pending]:
        try:
            return list(read_queue(self.queue)[0].values())
        except (FileNotFoundError, ValueError):
            return []

    async def kill(self, sig: int) -> None:
        self.process.send_signal(sig)
        assert await asyncio.wait_for(self.process.wait(), 60) == -sig  # it died of it: nothing ran after the signal

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()


STEPS = {
    # nothing listens on the service's port: the call is queued, its send failed
    "service away": lambda desk, proxy: any(p.attempts for p in desk.calls()),
    # the H2 request left the desk; the proxy keeps it from the service
    "request held": lambda desk, proxy: proxy.posts_held > 0,
    # the H2 reached the service, which wrote the record; its answer is thrown away
    "answer dropped": lambda desk, proxy: proxy.answers_dropped > 0,
    # the answer arrived: the queue holds the record's id
    "answered": lambda desk, proxy: any(p.sent for p in desk.calls()),
}
MODES = {"service away": "pass", "request held": "hold", "answer dropped": "drop_answer", "answered": "pass"}


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP], ids=["SIGKILL", "SIGHUP"])
@pytest.mark.parametrize("step", list(STEPS))
async def test_a_call_killed_at_any_step_of_its_send_is_recorded_exactly_once(tmp_path, step, sig):
    number = f"031234{list(STEPS).index(step):02d}{int(sig):02d}"
    baresip = Baresip(tmp_path / "baresip", auto_answer=True)
    server = LiveServer(make_server())
    proxy = FaultProxy(server.port, free_port())
    proxy.mode = MODES[step]
    desk = Desk(proxy.base_url, baresip, tmp_path)
    try:
        if step != "service away":
            await proxy.start()
        await desk.start()
        caller = await sipp_call(baresip, tmp_path, "山田 太郎", number)
        assert await caller.wait() == 0  # answered by the soft phone, 2 s of talk, hung up
        assert await until(lambda: STEPS[step](desk, proxy)), step
        await desk.kill(sig)
        written = [p for p in desk.calls() if p.from_num == number]
        assert len(written) == 1 and written[0].answered  # on disk before it died

        proxy.mode = "pass"
        if step == "service away":
            await proxy.start()
        await desk.start()  # the desk comes back: it sends what is queued, once
        assert await until(lambda: all(p.sent for p in desk.calls()))
        await desk.stop()
        checker = make_service(server.server.config.app)
        try:
            records = [r for r in await checker.calls.refresh("incoming") if r.fromNum == number]
        finally:
            await checker.close()
        assert len(records) == 1, [r.incomingCallHistoryId for r in records]
        assert records[0].answered is True and abs(records[0].duration - TALK_SECONDS) <= 1
        assert records[0].incomingCallHistoryId == desk.calls()[0].record_id
    finally:
        await desk.stop()
        await proxy.stop()
        server.stop()
        baresip.stop()
