"""Search over the 100k users + 100k contacts cache: the committed query
set (bench/search_queries.txt), each query asked afresh (no narrowing of a previous
answer), people and contacts together, 50 hits, as the directory's search box asks.

    python bench/search_bench.py [--size 100000] [--repeat 20]

Goal: p95 < 10 ms at load < 1. Printed: median and p95 quiet, then with one core kept
busy by a spinning process; baseline in the same run: a LIKE '%q%' scan over the same
records' terms (what an unindexed search costs). The cache is bench/out/write-<size>.sqlite3
(built by bench/cache_write_bench.py).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import report  # noqa: E402

from corpdir.cache.folding import fold  # noqa: E402
from corpdir.cache.search import search  # noqa: E402
from corpdir.cache.store import CacheStore  # noqa: E402

HERE = Path(__file__).parent


def queries() -> list[str]:
    lines = (HERE / "search_queries.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def timed(store: CacheStore, typed: list[str], repeat: int) -> tuple[list[float], dict[str, float]]:
    samples, worst = [], {}
    for _ in range(repeat):
        for q in typed:
            started = time.perf_counter()
            search(store, q, limit=50)
            took = time.perf_counter() - started
            samples.append(took)
            worst[q] = max(worst.get(q, 0.0), took)
    return samples, worst


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    db = HERE / "out" / f"write-{args.size}.sqlite3"
    if not db.exists():
        raise SystemExit(f"{db} is missing: run bench/cache_write_bench.py --size {args.size} first")
    store = CacheStore(db)
    typed = queries()
    for q in typed:  # warm the page cache, and show what each finds
        hits = search(store, q, limit=50)
        print(f"  {q!r:16} {len(hits):3} hits" + (f", first: {hits[0].kind} {hits[0].id} by {hits[0].field}" if hits else ""))
    baseline = []
    for q in typed[:15]:
        started = time.perf_counter()
        store._rows("SELECT id FROM users WHERE terms LIKE ? LIMIT 50", (f"%{fold(q)}%",))
        baseline.append(time.perf_counter() - started)
    load = os.getloadavg()[0]
    quiet, worst = timed(store, typed, args.repeat)
    print(f"{len(typed)} queries x {args.repeat}; load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    report("search, 50 hits (people + contacts)", quiet, baseline)
    report("baseline: LIKE '%q%' over users' terms", baseline)
    print("  slowest: " + ", ".join(f"{q} {t * 1e3:.1f} ms" for q, t in sorted(worst.items(), key=lambda kv: -kv[1])[:6]))
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)
        load = os.getloadavg()[0]
        busy, worst = timed(store, typed, args.repeat)
    finally:
        spinner.kill()
        spinner.wait()
    print(f"with one core busy (a spinning process); load average {load:.2f}")
    report("search, 50 hits, one core busy", busy, baseline)
    store.close()


if __name__ == "__main__":
    main()
