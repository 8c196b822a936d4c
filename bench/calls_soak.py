"""Exactly once under load, with a kill -9 in the middle: figures, not a test.

    python bench/calls_soak.py [--calls 150] [--rate 5] [--kill-after 60]

SIPp places ``--calls`` calls at ``--rate`` calls/s (2 s of talk each, 150 distinct
numbers) to an auto-answering baresip (``call_max_calls 32``); the desk's call session
runs in a process of its own (tests/calls/desk_session.py) and records to the reference
server under uvicorn on 127.0.0.1. Once ``--kill-after`` records are on the service the
desk is killed with SIGKILL and started again at once. Printed: calls SIPp completed,
calls the feed reported (in the queue file), records on the service, numbers recorded
twice, calls of unknown outcome, calls nobody reported (they rang and ended while no
desk listened: baresip keeps no log), and how long the desk was down.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "tests"))

from service_fixtures import LiveServer, make_server, make_service  # noqa: E402
from sip_helpers import SCENARIOS, SIPP, Baresip, free_sip_port  # noqa: E402


async def start_desk(base_url: str, baresip: Baresip, log: Path) -> asyncio.subprocess.Process:
    with open(log, "ab") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE.parent / "tests" / "calls" / "desk_session.py"), base_url, str(baresip.ctrl_port),
            "0.5", stdout=asyncio.subprocess.PIPE, stderr=err, env=os.environ.copy())
    assert (await process.stdout.readline()).strip() == b"ready"
    return process


async def main(calls: int, rate: int, kill_after: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="corpdir-soak-"))
    for name in ("DATA", "CACHE", "STATE"):
        os.environ[f"CORPDIR_{name}_DIR"] = str(folder / name.lower())
    os.environ["CORPDIR_RUNTIME_DIR"] = str(folder / "run")
    os.environ["CORPDIR_CONFIG"] = os.devnull
    from corpdir.calls.recorder import queue_path, read_queue
    from corpdir.config import ServiceConfig
    from corpdir.paths import data_dir

    server = LiveServer(make_server())
    baresip = Baresip(folder / "baresip", auto_answer=True)
    numbers = [f"0312{i:06d}" for i in range(calls)]
    (folder / "callers.csv").write_text("SEQUENTIAL\n" + "".join(f"客 {i};{n}\n" for i, n in enumerate(numbers)))
    queue = queue_path(ServiceConfig(base_url=server.base_url, api_key="demo-reception").profile().cache_path(), data_dir())

    def entries() -> dict:
        try:
            return read_queue(queue)[0]
        except (FileNotFoundError, ValueError):
            return {}

    desk = await start_desk(server.base_url, baresip, folder / "desk.log")
    sipp = await asyncio.create_subprocess_exec(
        SIPP, "-sf", str(SCENARIOS / "caller.xml"), "-inf", str(folder / "callers.csv"), f"127.0.0.1:{baresip.sip_port}",
        "-s", "desk", "-m", str(calls), "-r", str(rate), "-i", "127.0.0.1", "-p", str(free_sip_port()), "-nostdin",
        "-timeout", "300",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL, cwd=folder)
    while sum(p.sent for p in entries().values()) < kill_after:
        await asyncio.sleep(0.05)
    desk.send_signal(signal.SIGKILL)
    await desk.wait()
    down = time.perf_counter()
    desk = await start_desk(server.base_url, baresip, folder / "desk.log")
    down = time.perf_counter() - down
    sipp_status = await sipp.wait()
    for _ in range(1200):  # the last call ends last: once it is queued and everything is sent, the desk is done
        now = entries()
        if any(p.from_num == numbers[-1] for p in now.values()) and all(p.sent for p in now.values()):
            break
        await asyncio.sleep(0.05)
    desk.terminate()
    await desk.wait()
    queued, _refused, unknown, _open = read_queue(queue)
    checker = make_service(server.server.config.app)
    records = [r for r in await checker.calls.refresh("incoming", limit=10 * calls) if r.fromNum in set(numbers)]
    await checker.close()
    per_number = Counter(r.fromNum for r in records)
    reported = {p.from_num for p in queued.values()} | {n.from_num for n in unknown}
    print(f"calls placed {calls} at {rate}/s; SIPp exit status {sipp_status} (0: every call answered and hung up)")
    print(f"desk killed (SIGKILL) after {kill_after} records, back in {down:.2f} s")
    print(f"reported by the feed: {len(reported)} ({len(queued)} queued, {len(unknown)} unknown outcome)")
    print(f"records on the service: {len(records)} for {len(per_number)} numbers; "
          f"recorded twice: {sum(1 for c in per_number.values() if c > 1)}")
    print(f"reported but not recorded: {len(reported - set(per_number) - {n.from_num for n in unknown})}; "
          f"never reported (rang and ended while no desk listened): {len(set(numbers) - reported)} "
          f"{sorted(set(numbers) - reported)}; files in {folder}")
    baresip.stop()
    server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=150)
    parser.add_argument("--rate", type=int, default=5)
    parser.add_argument("--kill-after", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.rate, args.kill_after))
