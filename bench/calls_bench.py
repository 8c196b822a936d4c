"""Call pop-up benchmarks: figures, not timed tests.

    python bench/calls_bench.py [--runs 100] [--sip-runs 15] [--size 100000] [--only event|sip]

(a) event: a feed's event to the pop-up painted, over a 100k-user cache with a desk's
    call history (3,000 incoming calls from 300 numbers: "the last calls from this
    number" has something to find), run_test, headless, 120x36, on the directory screen:
    from the moment a feed hands the event to the desk phone until the compositor renders
    the new card. Numbers drawn from the cache (nine in ten, half of them callers in the
    history) and unknown ones. Goal p95 < 100 ms. Wall clock and the process's CPU time
    (both threads; steadier than wall clock on a loaded machine). Baseline in the same
    run: the cache's part alone (who has the number, the last calls from it) for the same
    numbers.
(b) sip: a real call: SIPp sends an INVITE to baresip (ctrl_tcp) and corpdir's baresip
    feed pops the caller up: from SIPp's "message sent" time stamp of the INVITE to the
    card painted (wall clock, one machine). Goal median < 250 ms. Baseline in the same run:
    INVITE sent to baresip's CALL_INCOMING read by a bare socket (no corpdir).
The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from corpdir.service.backend import backend_of

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from _stats import report  # noqa: E402

COLUMNS, LINES = 120, 36


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


class Unanswered:
    """An httpx transport that never answers: the pop-up must need no request at all."""

    async def handle_async_request(self, request):  # noqa: ANN001, ANN201
        await asyncio.Event().wait()

    async def aclose(self) -> None:
        pass


def paint_spy(clock=time.perf_counter):  # noqa: ANN001, ANN201
    """Patch RingCard.render_line: the first line rendered of each card is when it is painted
    (``clock``), and the process's CPU time then: two dicts by call id."""
    from corpdir.tui.widgets.ring_card import RingCard

    painted: dict[str, float] = {}
    cpu: dict[str, float] = {}
    original = RingCard.render_line

    def render_line(self, y):  # noqa: ANN001, ANN202
        if self.ring.event.call_id not in painted:
            painted[self.ring.event.call_id] = clock()
            cpu[self.ring.event.call_id] = time.process_time()
        return original(self, y)

    RingCard.render_line = render_line
    return painted, cpu


def open_app(db: Path, calls: dict):  # noqa: ANN201
    from corpdir.cache.store import CacheStore
    from corpdir.client import DirectoryClient
    from corpdir.config import CallsConfig, ServiceConfig
    from corpdir.service.directory import DirectoryService
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    settings = ServiceConfig(base_url="http://unanswered.test/v1", api_key="bench", max_retries=0)
    service = DirectoryService(DirectoryClient(settings, transport=Unanswered()), CacheStore(str(db)), settings)
    app = CorpdirApp(service, state=State(Path(tempfile.mkdtemp()) / "state.json"), sync_on_start=False,
                     calls=CallsConfig(ring_socket=False, **calls))
    return service, app


def user_numbers(store, count: int) -> list[str]:  # noqa: ANN001
    """``count`` numbers of random people (some have none: twice as many are read)."""
    rows = store._rows("SELECT data FROM users ORDER BY random() LIMIT ?", (count * 2,))
    return [n for (blob,) in rows if (n := store.codec.load(blob).get("phoneNum"))][:count]


def call_history(store, rng: random.Random, calls: int = 3_000, callers: int = 300) -> list[str]:  # noqa: ANN001
    """A desk's incoming history in the cache (as a sync of H1 leaves it); its callers."""
    known = user_numbers(store, callers)
    start = datetime(2026, 8, 1, 9, tzinfo=timezone.utc).timestamp()
    store.put_calls("incoming", [
        {"incomingCallHistoryId": i + 1, "fromNum": rng.choice(known), "answered": rng.random() < 0.7,
         "duration": rng.randint(0, 600), "calledAt": datetime.fromtimestamp(start + i * 2_600, timezone.utc).isoformat()}
        for i in range(calls)])
    return known


def numbers(store, rng: random.Random, count: int, callers: list[str]) -> list[str]:  # noqa: ANN001
    """Nine in ten from the cache (half of those callers in the history), else unknown."""
    known = user_numbers(store, count)
    return [(rng.choice(callers) if rng.random() < 0.5 else n) if rng.random() < 0.9
            else f"0{rng.randint(3, 9)}{rng.randint(10_000_000, 99_999_999)}" for n in known]


async def wait_until(predicate, tries: int = 5_000) -> bool:  # noqa: ANN001
    """Poll every 2 ms (the painted time is taken by the paint itself, not by this loop)."""
    for _ in range(tries):
        if predicate():
            return True
        await asyncio.sleep(0.002)
    return False


async def bench_event(db: Path, runs: int) -> None:
    from corpdir.calls.events import CallEvent, CallState
    from corpdir.service.calls import CallDesk

    painted, painted_cpu = paint_spy()
    service, app = open_app(db, {})
    times, cpu_times, base = [], [], []
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        for _ in range(500):
            await pilot.pause(0.01)
            if app.screen.query("#users") and app.desk_phone.session.hub is not None:
                break
        print(f"    cache: {backend_of(service).store.count_users()} users")
        rng = random.Random(14)
        callers = await backend_of(service).cache.run(call_history, backend_of(service).store, rng)
        print(f"    call history: {len(await service.calls.cached('incoming'))} incoming calls in reach")
        desk = CallDesk(service)
        for i, number in enumerate(numbers(backend_of(service).store, rng, runs, callers)):
            call_id = f"bench-{i}"
            started, cpu_started = time.perf_counter(), time.process_time()
            app.desk_phone.session.on_event(CallEvent("bench", call_id, CallState.RINGING, number))
            if not await wait_until(lambda: call_id in painted):
                print(f"    {call_id}: never painted")
                continue
            times.append(painted[call_id] - started)
            cpu_times.append(painted_cpu[call_id] - cpu_started)
            t0 = time.perf_counter()
            await backend_of(service).cache.run(desk._caller, number, 3)
            base.append(time.perf_counter() - t0)
            for ring in app.desk_phone.session.rings:  # dismissed: the next call is a new card
                app.desk_phone.session.dismiss(ring)
            await pilot.pause(0.1)  # the screen has settled (the band hidden again) before the next call
    await service.close()
    print(f"(a) feed event to pop-up painted, {len(times)} calls over the {db.name} cache")
    report("event to card painted", times, base)
    report("  the same, CPU time of the process", cpu_times)
    report("baseline: the cache's part alone", base)
    print(f"    within 100 ms: {sum(t < 0.1 for t in times)}/{len(times)}")


def sipp_sent_at(log: Path) -> float | None:
    """The wall-clock time SIPp logged for sending its first INVITE."""
    text = log.read_text(errors="replace") if log.exists() else ""
    m = re.search(r"-{10,} (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\s*\n\s*UDP message sent[^\n]*\n\s*\nINVITE ", text)
    return datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp() if m else None


async def one_sip_call(baresip, folder: Path, number: str, seen) -> float | None:  # noqa: ANN001
    """Place one call; ``seen()`` returns the wall time corpdir (or the baseline) saw it."""
    from sip_helpers import sipp_call

    folder.mkdir(parents=True, exist_ok=True)
    caller = await sipp_call(baresip, folder, "山田 太郎", number)
    try:
        if not await wait_until(lambda: seen() is not None):
            return None
        sent = sipp_sent_at(folder / "messages.log")
        for _ in range(200):
            if sent is not None:
                break
            await asyncio.sleep(0.01)
            sent = sipp_sent_at(folder / "messages.log")
        return None if sent is None else seen() - sent
    finally:
        if caller.returncode is None:
            caller.terminate()
        await caller.wait()


async def bench_sip(db: Path, runs: int) -> None:
    from corpdir.calls.feeds.baresip import Connection, send_command
    from sip_helpers import BARESIP, SIPP, Baresip

    if not (BARESIP and SIPP):
        print("(b) skipped: baresip and sipp are needed")
        return
    work = Path(tempfile.mkdtemp(prefix="calls-bench-"))
    phone = Baresip(work / "baresip")
    rng = random.Random(15)
    try:
        # baseline: a bare ctrl_tcp connection reading events (and hanging each call up over
        # itself: ctrl_tcp serves one client, a second connection would close this one)
        base = []
        control = Connection(*await asyncio.open_connection("127.0.0.1", phone.ctrl_port))
        incoming: list[float | None] = [None]

        async def read() -> None:
            async for payload in control.messages():
                if b"CALL_INCOMING" in payload:
                    incoming[0] = time.time()

        reading = asyncio.create_task(read())
        for i in range(runs):
            incoming[0] = None
            took = await one_sip_call(phone, work / f"base-{i}", "0312345678", lambda: incoming[0])
            if took is not None:
                base.append(took)
            await control.command("hangup", "")
        reading.cancel()
        control.close()

        painted, _ = paint_spy(time.time)
        service, app = open_app(db, {"feeds": [{"kind": "baresip", "name": "soft phone", "port": phone.ctrl_port}]})
        times = []
        async with app.run_test(size=(COLUMNS, LINES)) as pilot:
            for _ in range(1000):
                await pilot.pause(0.01)
                status = app.desk_phone.session.hub.status.get("soft phone") if app.desk_phone.session.hub else None
                if status is not None and status.state == "connected":
                    break
            for i, number in enumerate(numbers(backend_of(service).store, rng, runs, user_numbers(backend_of(service).store, 50))):
                before = set(painted)
                took = await one_sip_call(phone, work / f"call-{i}", re.sub(r"\D", "", number),
                                          lambda: next((painted[k] for k in painted if k not in before), None))
                if took is not None:
                    times.append(took)
                await send_command("127.0.0.1", phone.ctrl_port, "hangup", "")
                for ring in app.desk_phone.session.rings:
                    app.desk_phone.session.dismiss(ring)
                await pilot.pause(0.05)
        await service.close()
        print(f"(b) SIPp INVITE sent to pop-up painted through baresip, {len(times)} calls")
        report("INVITE sent to card painted", times, base)
        report("baseline: INVITE sent to CALL_INCOMING read", base)
    finally:
        phone.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--sip-runs", type=int, default=15)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--only", choices=("event", "sip"))
    args = parser.parse_args()
    from tui_bench import big_cache

    print(load())
    db = big_cache(args.size)
    if args.only in (None, "event"):
        asyncio.run(bench_event(db, args.runs))
    if args.only in (None, "sip"):
        asyncio.run(bench_sip(db, args.sip_runs))
    print(load())


if __name__ == "__main__":
    main()
