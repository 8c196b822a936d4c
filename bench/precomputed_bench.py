"""The gateway's precomputed caller-ID map after a commit: one changed record against a full rebuild.

    python bench/precomputed_bench.py [--size 10000] [--cache bench/out/cache-10000.sqlite3] [--rounds 20]

A copy of a bench cache (bench/cache_bench.py builds them) is served by one gateway map
(corpdir.gateway.precomputed.Precomputed, in process, on its own event loop). Printed, in
one run: the full rebuild (the map built whole: at start, and ``--rebuilds`` times again
after its marks are forgotten) as the baseline; one person renamed (the commit, then the map holding the new
entry); and a commit that changes nothing (one person written again as they were: what a
periodic sync's pages are). For each: the wall time of the update (from the loop noticing
the commit to the map being done; the notice itself waits up to CHECK_SECONDS) and the
process's CPU time over the same span, median and p95, with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import report  # noqa: E402 - bench/ is not a package

OUT = Path(__file__).parent / "out"


async def _update(precomputed, commit) -> tuple[float, float, float]:
    """(wall of the update, CPU of the process over it, commit -> map done) for one commit."""
    follow = precomputed._follow
    began = time.monotonic()
    await commit()
    while precomputed._follow is follow:  # the loop notices the commit (CHECK_SECONDS at most)
        await asyncio.sleep(0.0005)
    noticed, cpu = time.monotonic(), time.process_time()
    await precomputed._follow
    return time.monotonic() - noticed, time.process_time() - cpu, time.monotonic() - began


async def run(db: Path, rounds: int, rebuilds: int) -> None:
    from corpdir.cache.store import CacheStore
    from corpdir.config import GatewayConfig, ServiceConfig
    from corpdir.gateway.app import build_app
    from corpdir.gateway.precomputed import Precomputed
    from corpdir.phone import digits
    from corpdir.service.directory import DirectoryService

    settings = ServiceConfig(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
    store = CacheStore(db)
    service = DirectoryService(None, store, settings, connect=lambda: None)
    app = build_app(service, GatewayConfig(token="bench-token", sync_every=0))
    precomputed = Precomputed(app)
    people = [u for u in await service.people.window(None, limit=rounds * 3) if u.phoneNum][:rounds + 1]
    full, full_cpu = [], []
    began, cpu = time.monotonic(), time.process_time()
    precomputed.start()
    while not precomputed.replies:
        await asyncio.sleep(0.01)
    full.append(time.monotonic() - began)
    full_cpu.append(time.process_time() - cpu)
    print(f"{len(precomputed.replies)} numbers in the map", flush=True)

    def write(user):
        return lambda: asyncio.to_thread(store.put_users, [user])

    async def forget_and_write(user):
        precomputed.marks = None  # the next commit builds the map whole
        await asyncio.to_thread(store.put_users, [user])

    one, one_cpu, one_seen, none, none_cpu = [], [], [], [], []
    for i, user in enumerate(people[:rounds]):
        renamed = user.model_copy(update={"fullname": f"{user.fullname}{i}"})
        wall, cpu_s, seen = await _update(precomputed, write(renamed))
        assert renamed.fullname.encode() in precomputed.replies[precomputed.key(digits(user.phoneNum))][1]
        one.append(wall)
        one_cpu.append(cpu_s)
        one_seen.append(seen)
        wall, cpu_s, _ = await _update(precomputed, write(renamed))
        none.append(wall)
        none_cpu.append(cpu_s)
    for _ in range(rebuilds):
        wall, cpu_s, _ = await _update(precomputed, lambda: forget_and_write(people[-1]))
        full.append(wall)
        full_cpu.append(cpu_s)
    report("full rebuild (baseline): wall", full, unit="s")
    report("full rebuild (baseline): CPU", full_cpu, unit="s")
    print(f"full rebuild: {statistics.median(full_cpu) / len(precomputed.replies) * 1e6:.0f} us CPU a number", flush=True)
    report("one person renamed: wall", one, full, unit="s")
    report("one person renamed: CPU", one_cpu, full_cpu, unit="s")
    report("one person renamed: commit -> new entry in", one_seen, unit="s")
    report("nothing changed (marks read, diffed): wall", none, unit="s")
    report("nothing changed (marks read, diffed): CPU", none_cpu, unit="s")
    await many_at_once(precomputed, store, service)
    precomputed.stop()
    await service.close()


async def many_at_once(precomputed, store, service) -> None:
    """Where number by number stops paying: people renamed in one commit, every number
    they touch rendered again (the share limit lifted), against the full rebuild per number."""
    from corpdir.gateway import precomputed as module

    share, module.INCREMENTAL_SHARE = module.INCREMENTAL_SHARE, 1.0
    total = len(precomputed.replies)
    people = await service.people.window(None, limit=10000)
    try:
        for count in (100, 1000, 4000, 10000):
            batch = [u.model_copy(update={"fullname": f"{u.fullname}*"}) for u in people[:count]]
            before = dict(precomputed.replies)
            wall, cpu_s, _ = await _update(precomputed, lambda: asyncio.to_thread(store.put_users, batch))
            redone = sum(1 for k, v in before.items() if precomputed.replies.get(k) is not v)
            print(f"{count:>6} people renamed at once: {redone} of {total} numbers rendered again ({redone / total:.0%}),"
                  f" wall {wall:.2f} s, CPU {cpu_s:.2f} s, {cpu_s / max(redone, 1) * 1e6:.0f} us CPU a number", flush=True)
    finally:
        module.INCREMENTAL_SHARE = share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--cache", type=Path, help="a bench cache (default bench/out/cache-SIZE.sqlite3)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--rebuilds", type=int, default=2, help="full rebuilds after the first (~60 s of CPU each at 100k)")
    args = parser.parse_args()
    source = args.cache or OUT / f"cache-{args.size}.sqlite3"
    if not source.exists():
        raise SystemExit(f"no {source}: python bench/cache_bench.py --size {args.size} builds it")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cache.sqlite3"
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, sqlite3.connect(db) as copy:
            src.backup(copy)  # the bench writes to its copy
        print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()}", flush=True)
        asyncio.run(run(db, args.rounds, args.rebuilds))
        print(f"load average after {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
