"""Export benchmark: `corpdir export users --format vcard|csv --from cache -o FILE`
as a whole process over a warm cache of 100k users, its seconds and peak RSS; and
`corpdir export --format ldif` of the whole phonebook (100k users, the shared contacts of
100k, and a company line per main number: ~209k entries).

    python bench/export_bench.py [--size 100000] [--runs 3] [--rebuild] [--only ldif|cards]

Goals: 100k users to vCard within 30 s and 150 MB peak RSS; the LDIF (190k people and
contacts) within 10 s and 150 MiB. Baseline measured in the same
run: the same process shape copying the cache's stored records to a file unformatted
(one sqlite SELECT, a write per row): the floor of reading the cache and writing a file.
The cache (bench/out/users-SIZE.sqlite3: the demo generator's users, no contacts) is built
once through the cache's public API and read through a copy; the LDIF's (users and
contacts, bench/out/cache-SIZE.sqlite3) is cache_bench.py's, built the same way.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import report  # noqa: E402

from corpdir.paths import Profile  # noqa: E402

OUT = Path(__file__).parent / "out"
BASE_URL, KEY = "http://127.0.0.1:9/v1", "bench-key"
FLOOR = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for (data,) in conn.execute("SELECT data FROM users"):
        out.write(data + "\\n")
"""

FLOOR_ALL = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
with open(sys.argv[2], "wb") as out:
    for (data,) in conn.execute("SELECT data FROM users UNION ALL SELECT data FROM contacts"):
        out.write((data.encode() if isinstance(data, str) else data) + b"\\n")
"""  # the phonebook's cache holds records compressed (bytes): copied as they are


def _tree_rss(pid: int) -> float:
    """MiB resident now in ``pid`` and every process under it (from /proc)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                total += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo += [int(child) for child in children.read().split()]
        except OSError:  # it ended meanwhile
            continue
    return total / 1024


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(seconds, peak RSS in MiB, CPU seconds) of one process: its own peak, or, when it
    starts others (the LDIF export's second process), the peak of their sum sampled every
    20 ms; the CPU (user + sys) is its own and that of the processes it waited for."""
    import threading

    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            peak[0] = max(peak[0], _tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:6]} failed ({proc.returncode}): {error[-2000:]}")
    return seconds, max(usage.ru_maxrss / 1024, peak[0]), usage.ru_utime + usage.ru_stime


def build(path: Path, size: int) -> None:
    from cache_bench import as_responses

    from corpdir.cache.store import CacheStore
    from corpdir.server.demo import generate_tenant

    users, _ = as_responses(generate_tenant(size=size, contacts=0, seed=1))
    for old in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        old.unlink(missing_ok=True)
    store = CacheStore(path)
    started = time.perf_counter()
    for i in range(0, len(users), 1000):
        store.put_users(users[i:i + 1000])
    store.mark_synced("users")
    store.close()
    print(f"built a cache of {len(users)} users in {time.perf_counter() - started:.1f} s")


def environment(tmp: str, db: Path) -> dict[str, str]:
    """The env of a `corpdir` process reading a copy of ``db`` as its profile's cache."""
    env = {**os.environ, "CORPDIR_BASE_URL": BASE_URL, "CORPDIR_API_KEY": KEY, "CORPDIR_CACHE_DIR": tmp,
           "CORPDIR_CONFIG": os.devnull}
    os.environ["CORPDIR_CACHE_DIR"] = tmp
    target = Profile(BASE_URL, KEY).cache_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(db, target)
    return env


def bench_ldif(size: int, runs: int, rebuild: bool) -> None:
    """The whole phonebook to LDIF, whole process: seconds and peak RSS, beside the floor
    (the stored users and contacts copied to a file) of the same run."""
    from cache_bench import build as build_phonebook

    db = OUT / f"cache-{size}.sqlite3"
    if rebuild or not db.exists():
        seconds, count = build_phonebook(db, size)
        print(f"built a cache of {count} users and contacts in {seconds:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        env = environment(tmp, db)
        target = Profile(BASE_URL, KEY).cache_path()
        load = os.getloadavg()
        times, rss, cpu, floor_times, floor_rss = [], [], [], [], []
        for _ in range(runs):
            seconds, peak, used = timed([sys.executable, "-m", "corpdir.cli", "export", "--format", "ldif", "-o",
                                         os.path.join(tmp, "out.ldif")], env)
            times.append(seconds)
            rss.append(peak)
            cpu.append(used)
            seconds, peak, _ = timed([sys.executable, "-c", FLOOR_ALL, str(target), os.path.join(tmp, "floor.jsonl")], env)
            floor_times.append(seconds)
            floor_rss.append(peak)
        entries = Path(tmp, "out.ldif").read_text(encoding="utf-8").count("\ndn: ") + 1
        report(f"export the phonebook to LDIF, {entries} entries", times, floor_times, unit="s")
        print(f"  peak RSS {max(rss):.0f} MiB (runs: {', '.join(f'{r:.0f}' for r in rss)})")
        # the wall time of a loaded machine says little; CPU over the two cores the export
        # uses is what it takes on a quiet one (a lower bound: the halves are not quite equal)
        print(f"  CPU (user + sys, both processes) {', '.join(f'{c:.1f}' for c in cpu)} s: "
              f"quiet two-core estimate {min(cpu) / 2:.1f} s or a little more")
        report("baseline: the stored users and contacts copied", floor_times, unit="s")
        print(f"  peak RSS {max(floor_rss):.0f} MiB")
        print(f"load average (1/5/15 min) {load[0]:.2f}/{load[1]:.2f}/{load[2]:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--only", choices=("ldif", "cards"), help="only the LDIF, or only vCard and CSV")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    if args.only != "cards":
        bench_ldif(args.size, args.runs, args.rebuild)
    if args.only == "ldif":
        return
    db = OUT / f"users-{args.size}.sqlite3"
    if args.rebuild or not db.exists():
        build(db, args.size)
    with tempfile.TemporaryDirectory() as tmp:
        env = environment(tmp, db)
        target = Profile(BASE_URL, KEY).cache_path()
        load = os.getloadavg()[0]
        figures: dict[str, tuple[list[float], list[float]]] = {"vcard": ([], []), "csv": ([], []), "floor": ([], [])}
        for _ in range(args.runs):
            for fmt in ("vcard", "csv"):
                seconds, rss, _ = timed([sys.executable, "-m", "corpdir.cli", "export", "users", "--from", "cache",
                                      "--format", fmt, "--limit", str(args.size), "-o", os.path.join(tmp, f"out.{fmt}")], env)
                figures[fmt][0].append(seconds)
                figures[fmt][1].append(rss)
            seconds, rss, _ = timed([sys.executable, "-c", FLOOR, str(target), os.path.join(tmp, "floor.jsonl")], env)
            figures["floor"][0].append(seconds)
            figures["floor"][1].append(rss)
        cards = Path(tmp, "out.vcard").read_text(encoding="utf-8").count("BEGIN:VCARD")
        if cards != args.size:
            raise SystemExit(f"the vCard export holds {cards} cards, not {args.size}")
        baseline = figures["floor"][0]
        for fmt, label in (("vcard", "vCard 4.0"), ("csv", "CSV")):
            report(f"export {args.size} users to {label} (whole process)", figures[fmt][0], baseline, unit="s")
            print(f"  peak RSS {max(figures[fmt][1]):.0f} MiB (runs: {', '.join(f'{r:.0f}' for r in figures[fmt][1])})")
        report("baseline: the stored records copied to a file", baseline, unit="s")
        print(f"  peak RSS {max(figures['floor'][1]):.0f} MiB")
        print(f"load average (1 min) {load:.2f} before, {os.getloadavg()[0]:.2f} after", flush=True)


if __name__ == "__main__":
    main()
