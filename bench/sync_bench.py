"""Sync benchmark: `corpdir sync` of a 100k-user (+ contacts) tenant from the
reference server on 127.0.0.1 with its default token bucket (60 burst, 10/s).

    python bench/sync_bench.py [--size 100000]     # 100k users and (generator default) 100k contacts

Prints: wall seconds, requests, the rate-limit floor ((requests - burst) / rate), the
ratio of the two, peak RSS of the sync process, the cache size on disk and its bytes a
record as the sync left it (what a user gets: the first sync compacts it) against a
VACUUMed copy of it (goal <= 1,300 B/record). The server's
data dir is kept in bench/out, so the tenant is generated once; the first run after it is
made also waits for the server to load it, so take the second.

The sync runs in a clean venv's interpreter with the packages on PYTHONPATH (as for
`python -c pass` in bench/_stats.py): this machine's interpreter runs a site hook at every
start (0.15-0.2 s here) that a user's would not; and with bytecode cached (bench/out/pycache),
as an installed wheel has it, whatever PYTHONDONTWRITEBYTECODE says (set in some
sandboxes: every start then compiles corpdir's modules anew). The sync's own time (its summary's
total, from the first request to the last write) is printed too: the rest is the
process starting (imports, ~0.3 s) and ending.
"""

from __future__ import annotations

import argparse
import os
import site
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import clean_python  # noqa: E402

OUT = Path(__file__).parent / "out"
SRC = Path(__file__).parents[1] / "src"
BURST, RATE = 60, 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def corpdir(*args: str) -> list[str]:
    return [sys.executable, "-m", "corpdir.cli", *args]


def report_compactness(db: Path, size: int) -> None:
    """Bytes per record of the cache as the sync left it (what a user gets), against the
    same cache rebuilt by VACUUM: what compaction could still win, and what it costs."""
    import sqlite3

    conn = sqlite3.connect(db)
    records = sum(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("users", "contacts"))
    pages, free = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "vacuumed.sqlite3"
        started = time.perf_counter()
        conn.execute("VACUUM INTO ?", (str(copy),))
        seconds = time.perf_counter() - started
        packed = copy.stat().st_size
    conn.close()
    print(f"cache as synced: {size / records:,.0f} B/record ({records} users + contacts; {pages} pages, {free} free);"
          f" VACUUMed: {packed / records:,.0f} B/record ({seconds:.2f} s); goal <= 1,300 B/record")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args()
    data = OUT / f"server-{args.size}"
    port = free_port()
    OUT.mkdir(exist_ok=True)
    log = open(OUT / "sync_bench_server.log", "w")
    fresh = not data.exists()
    server = subprocess.Popen(corpdir("server", "--demo", "--size", str(args.size), "--data", str(data), "--port", str(port)),
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        started = time.time()
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit(f"server exited: see {log.name}")
                time.sleep(0.5)
        print(f"server ready in {time.time() - started:.1f} s ({'generated and loaded' if fresh else 'reused'} the tenant)")
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "CORPDIR_BASE_URL": f"http://127.0.0.1:{port}/v1", "CORPDIR_API_KEY": "demo-reception",
                   "CORPDIR_CACHE_DIR": tmp, "CORPDIR_CONFIG": os.devnull,
                   "PYTHONPATH": os.pathsep.join([str(SRC), *site.getsitepackages()]),
                   "PYTHONPYCACHEPREFIX": str(OUT / "pycache")}
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            started = time.perf_counter()
            result = subprocess.run([clean_python(), "-m", "corpdir.cli", "sync", "--quiet"], env=env, capture_output=True, text=True)
            wall = time.perf_counter() - started
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            print(result.stdout)
            if result.returncode:
                raise SystemExit(result.stderr[-2000:])
            total = re.search(r"total\s*│\s*(\d+)\s*│\s*(\d+)\s*│\s*(\d+)\s*│\s*(\d+)\s*│\s*([\d.]+)", result.stdout)
            requests = int(total.group(4)) if total else 0
            own = float(total.group(5)) if total else 0.0
            floor = max(requests - BURST, 0) / RATE
            size = sum(f.stat().st_size for f in Path(tmp).glob("*.sqlite3*"))
            print(f"sync wall {wall:.1f} s, {requests} requests, rate-limit floor {floor:.1f} s, ratio {wall / floor if floor else 0:.2f};"
                  f" the sync itself {own:.1f} s, ratio {own / floor if floor else 0:.2f}; load {os.getloadavg()[0]:.2f}")
            print(f"peak RSS of the sync process {max(peak, before) / 1024:.0f} MiB (the largest child so far)")
            print(f"cache on disk {size / 2**20:.1f} MiB")
            report_compactness(next(Path(tmp).glob("*.sqlite3")), size)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
