"""TUI benchmarks: figures, not timed tests.

    python bench/tui_bench.py [--runs 10] [--size 100000] [--only start|keys|rss]

(a) start: the real `corpdir` process under a pseudo-terminal (120x36), from spawn to the
    first frame that holds a known user row (demo tenant, warm data and fresh cache; then
    again on a copy of the --size cache with a service that never answers and no sync on
    start); baselines in the same run: `python -c "import textual.app"` and a bare Textual
    app to its first frame, under the same pty. Goal < 1.0 s, and within 2x the bare app
    on the 100k cache (issue 28). The load average is printed with each.
(b) keys: keystroke to repaint of the search results over a 100k-user cache (run_test,
    headless): from the key press until the list paints the first row of the new answer
    (the service's part of a search is held unanswered so only the cache's answer counts,
    as on a slow network). Goal p95 < 50 ms. Baseline: the cache search alone
    (Searcher.search), for the same keystrokes.
(c) rss: resident memory with the 100k cache open, the list scrolled end to end;
    baseline: a bare Textual app's RSS. Goal < 250 MB. Also reported: how many rows the
    list holds in memory and how many lines it renders per frame (it must never build
    100k rows or widgets).
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pty
import random
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import report, summary  # noqa: E402

OUT = Path(__file__).parent / "out"
GOAL_RATIO = 2.0  # start to the first painted list against a bare Textual app (issue 28)
COLUMNS, LINES = 120, 36

BARE_APP = """
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("bare-app-ready")
Bare().run()
"""


def rss_mib(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- (a) process start to first rows -------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process has used so far: unlike the wall time, the same
    whatever else the machine is doing."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_to_text(command: list[str], marker: bytes | tuple[bytes, ...], env: dict[str, str],
                 timeout: float = 20.0) -> tuple[float, float, float]:
    """Seconds from spawn until ``marker`` (each of them, when several) has appeared in what
    the process writes to its terminal; its RSS then (MiB) and its CPU seconds then. The
    process is then asked to quit (Ctrl+Q), else killed."""
    waiting = set(marker) if isinstance(marker, tuple) else {marker}
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    started = time.perf_counter()
    # Textual draws on stderr: all three ends are the terminal, as in a real one
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True, close_fds=True)
    os.close(slave)
    seen = b""
    elapsed = rss = cpu = float("nan")
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen = seen[-4096:] + chunk
            waiting = {text for text in waiting if text not in seen}
            if not waiting:
                elapsed = time.perf_counter() - started
                rss = rss_mib(proc.pid)
                cpu = cpu_seconds(proc.pid)
                break
        os.write(master, b"\x11")  # Ctrl+Q
        deadline = time.perf_counter() + 5
        while proc.poll() is None and time.perf_counter() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(5)
        os.close(master)
    return elapsed, rss, cpu


def bench_start(runs: int, db: Path | None = None) -> None:
    """``db``: start on that cache (a copy of a big one) with a service that never answers
    (127.0.0.1:9, no sync on start): what the cache alone costs the first screen."""
    home = OUT / "tui-demo" if db is None else db.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORPDIR_")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", CORPDIR_DATA_DIR=str(home / "data"),
               CORPDIR_CACHE_DIR=str(home / "cache"), CORPDIR_STATE_DIR=str(home / "state"),
               CORPDIR_CONFIG=os.devnull)
    script = shutil.which("corpdir", path=os.path.dirname(sys.executable))
    corpdir = [script] if script else [sys.executable, "-m", "corpdir.cli"]
    if db is not None:
        from corpdir.paths import Profile

        env.update(CORPDIR_BASE_URL="http://127.0.0.1:9/v1", CORPDIR_API_KEY="bench")
        target = Path(env["CORPDIR_CACHE_DIR"]) / Profile(env["CORPDIR_BASE_URL"], "bench").cache_path().name
        target.parent.mkdir(parents=True, exist_ok=True)
        db.rename(target)
        corpdir.append("--no-sync")
    # corpdir's bytecode compiled, as `pip install` leaves it: an editable install under
    # PYTHONDONTWRITEBYTECODE (set in some sandboxes) would otherwise compile every module
    # it imports at every start (~0.2 s here), which no installed copy does.
    import corpdir as package

    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(package.__file__)], check=True)
    if db is None:  # warm: the demo tenant generated into the data dir, the cache synced (fresh: no sync on start)
        subprocess.run(corpdir + ["sync"], env=env, check=True, capture_output=True)
    first = first_user_name(env)
    # the first screen whole: the first row and the search box above it (the rows come in
    # the app's first frame, the box's placeholder may come a frame after them)
    marker = (first.encode(), b"Search name")
    where = "the demo tenant" if db is None else f"{db.name} (no service)"
    print(f"(a) start: `corpdir` on {where} under a {COLUMNS}x{LINES} pty; first row: {first}; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    times, rss, cpu, base_import, base_app, base_rss, base_cpu = [], [], [], [], [], [], []
    for _ in range(runs):
        t, r, c = time_to_text(corpdir, marker, env)
        times.append(t)
        rss.append(r)
        cpu.append(c)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import textual.app"], env=env, check=True)
        base_import.append(time.perf_counter() - started)
        t, r, c = time_to_text([sys.executable, "-c", BARE_APP], b"bare-app-ready", env)
        base_app.append(t)
        base_rss.append(r)
        base_cpu.append(c)
    report("corpdir: spawn to first user rows", times, base_app, unit="s")
    report("baseline: bare Textual app to first frame", base_app, unit="s")
    report("baseline: python -c 'import textual.app'", base_import, unit="s")
    report("corpdir: CPU to first user rows", cpu, base_cpu, unit="s")
    report("baseline: CPU of the bare app to its first frame", base_cpu, unit="s")
    pairs = sorted(a / b for a, b in zip(times, base_app))  # each run against the bare app started right after it
    print(f"    ratio to the bare app, run by run: median {summary(pairs)[0]:.2f} (goal <= {GOAL_RATIO:.1f}); "
          f"CPU {summary(cpu)[0] / summary(base_cpu)[0]:.2f}")
    print(f"    RSS at first rows: corpdir {summary(rss)[0]:.0f} MiB, bare Textual app {summary(base_rss)[0]:.0f} MiB;"
          f" load {os.getloadavg()[0]:.2f}")


def first_user_name(env: dict[str, str]) -> str:
    """The name on the first row of the directory (Everyone, by name), read from the cache."""
    code = ("import asyncio\n"
            "from corpdir.config import load_settings\n"
            "from corpdir.service.directory import DirectoryService\n"
            "settings = load_settings().service\n"
            "service = DirectoryService.open(settings)\n"
            "async def main():\n"
            "    print((await service.people.window(None, limit=1))[0].fullname)\n"
            "    await service.close()\n"
            "asyncio.run(main())\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


# -- (b) and (c): the app in-process over a 100k cache ----------------------------------------
class Unanswered:
    """An httpx transport on a network that never answers: the app shows what the cache has."""

    async def handle_async_request(self, request):  # noqa: ANN001, ANN201
        await asyncio.Event().wait()

    async def aclose(self) -> None:
        pass


def big_cache(size: int) -> Path:
    """A private copy of bench/out/cache-<size>.sqlite3 (built by cache_bench.py's build())."""
    source = OUT / f"cache-{size}.sqlite3"
    if not source.exists():
        from cache_bench import build

        OUT.mkdir(exist_ok=True)
        seconds, records = build(source, size)
        print(f"built {source.name}: {records} records in {seconds:.1f} s")
    copy = Path(tempfile.mkdtemp(prefix="tui-bench-")) / source.name
    import sqlite3

    with sqlite3.connect(source) as src, sqlite3.connect(copy) as dst:  # a consistent copy, even if in use
        src.backup(dst)
    return copy


def typed_queries(store, rng: random.Random, count: int) -> list[str]:  # noqa: ANN001
    """What a receptionist types: family names in hiragana or kanji, romaji, or digits."""
    import jaconv

    rows = store._rows("SELECT data FROM users ORDER BY random() LIMIT ?", (count,))
    out = []
    for (blob,) in rows:
        u = store.codec.load(blob)
        kana = (u.get("fullnameKana") or "").split(" ")[0]
        choices = [jaconv.kata2hira(kana), (u.get("fullname") or "").split(" ")[0],
                   (u.get("fullnameAlphabet") or "").split(" ")[-1].lower(), (u.get("phoneNum") or "")[-7:]]
        out.append(rng.choice([c for c in choices if c]))
    return out


async def drive(db: Path, queries: list[str], do_keys: bool, do_rss: bool) -> None:

    from corpdir.cache.search import Searcher
    from corpdir.cache.store import CacheStore
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig
    from corpdir.service.directory import DirectoryService
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp
    from corpdir.tui.widgets import virtual_list
    from corpdir.tui.widgets.virtual_list import VirtualList

    before_open = rss_mib()
    settings = ServiceConfig(base_url="http://unanswered.test/v1", api_key="bench", max_retries=0)
    client = DirectoryClient(settings, transport=Unanswered())
    store = CacheStore(str(db))
    service = DirectoryService(client, store, settings)
    users_cached = store.count_users()
    app = CorpdirApp(service, state=State(Path(tempfile.mkdtemp()) / "state.json"), sync_on_start=False)
    painted: list[tuple[int, float]] = []
    rendered = [0]
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        original = users.render_line

        def spy(y: int):  # noqa: ANN202 - records when a frame shows a row of the current answer
            rendered[0] += 1
            strip = original(y)
            if y == 1 and (users.row_count == 0 or users.row(users.scroll_offset.y) is not None):  # rows, or 'no one'
                painted.append((users._generation, time.perf_counter()))
            return strip

        users.render_line = spy
        for _ in range(500):
            await pilot.pause(0.01)
            if users.row_count == users_cached and users.highlighted is not None:
                break
        print(f"    cache: {users_cached} users; the list says {users.row_count} rows")

        if do_keys:
            times, base = [], []
            searcher = Searcher(store)
            for query in queries:
                await pilot.press("slash")
                for end, char in enumerate(query, 1):
                    generation = users._generation
                    painted.clear()
                    started = time.perf_counter()
                    await pilot.press(char)
                    for _ in range(2000):
                        if any(g > generation and t >= started for g, t in painted):
                            break
                        await asyncio.sleep(0.0005)
                    done = next((t for g, t in painted if g > generation), None)
                    if done is not None:
                        times.append(done - started)
                    t0 = time.perf_counter()
                    searcher.search(query[:end], 200)
                    base.append(time.perf_counter() - t0)
                await pilot.press("escape")
                await pilot.pause(0.05)
            print(f"(b) keystroke to repaint of the search results, {len(queries)} queries typed a character at a time")
            report("key press to new rows painted", times, base)
            report("baseline: cache search alone (200 hits)", base)
            print(f"    within 50 ms: {sum(t < 0.05 for t in times)}/{len(times)}")

        if do_rss:
            await pilot.press("escape")
            users.focus()
            for _ in range(500):
                await pilot.pause(0.01)
                if users.row_count == users_cached:
                    break
            rendered[0] = 0
            frames = 0
            for _ in range(60):  # page through the top, then jump to the end and back
                await pilot.press("pagedown")
                frames += 1
            await pilot.press("end")
            await pilot.pause(0.2)
            await pilot.press("home")
            await pilot.pause(0.2)
            held = sum(len(rows) for rows in users._pages.values())
            widgets = len(list(app.screen.walk_children()))
            print(f"(c) memory with {users_cached} users cached, list paged {frames} times and jumped end to end")
            print(f"    RSS {rss_mib():.0f} MiB (before opening the cache {before_open:.0f} MiB; goal < 250 MB)")
            print(f"    rows held by the list: {held} (at most {virtual_list.PAGES_KEPT} pages of {virtual_list.PAGE}); "
                  f"widgets on the screen: {widgets}; lines rendered: {rendered[0]} for {frames + 2} moves "
                  f"(~{rendered[0] / (frames + 2):.0f} per move, {LINES} lines on screen)")
    await service.close()


def bare_rss() -> float:
    code = ("import asyncio\nfrom textual.app import App\nfrom textual.widgets import Static\n"
            "class Bare(App):\n    def compose(self):\n        yield Static('x')\n"
            "async def main():\n    async with Bare().run_test(size=(120, 36)) as pilot:\n        await pilot.pause(0.2)\n"
            "        print(int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) / 1024)\n"
            "asyncio.run(main())\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=12)
    parser.add_argument("--only", choices=("start", "keys", "rss"))
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    if args.only in (None, "start"):
        bench_start(args.runs)
        big = big_cache(args.size)
        try:
            bench_start(args.runs, big)
        finally:
            shutil.rmtree(big.parent, ignore_errors=True)
    if args.only in (None, "keys", "rss"):
        db = big_cache(args.size)
        try:
            from corpdir.cache.store import CacheStore

            store = CacheStore(str(db))
            queries = typed_queries(store, random.Random(6), args.queries)
            store.close()
            asyncio.run(drive(db, queries, args.only in (None, "keys"), args.only in (None, "rss")))
            if args.only in (None, "rss"):
                print(f"    baseline: a bare Textual app under run_test: RSS {bare_rss():.0f} MiB")
        finally:
            shutil.rmtree(db.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
