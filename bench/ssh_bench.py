"""SSH server benchmark: figures, not a timed test.

    python bench/ssh_bench.py [--counts 1,5,20] [--size 500]

Starts `corpdir ssh-server` in-process on 127.0.0.1 (demo tenant, cache synced once
beforehand) and opens N sessions at once with asyncssh, each reading its screen through
a terminal emulator (pyte). Per session:
  connect  - from opening the TCP connection to the first screen holding the user list;
  search   - from the last key of a romaji search to the screen showing the person.
Then each session's memory: RSS, and USS (its private pages: what one more session
really costs, since a session forked from the warm template shares the rest with it), and
each app's CPU time up to its first screen (independent of what else the machine is doing).
Each count is run twice: sessions forked from the warm template (the default), and the
baseline of a fresh `python -m corpdir.cli` process per session (``warm=False``).

Where the CPU of a burst goes, measured up to the moment every session has its first
screen: the apps (each app's CPU then, summed), this bench process (the SSH server, its
N clients and their pyte terminals all run in it) and the template. Their sum over the
cores is the floor of the last first screen on an otherwise idle machine; the p95 is
printed against the goal (issue 28: 20 at once, p95 <= 3 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from _stats import report, summary  # noqa: E402
from ssh_helpers import connect, demo_home_env, open_terminal, prepare_demo_home  # noqa: E402


GOAL_P95 = 3.0  # seconds to the first screen, 20 sessions at once (issue 28)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def private_kib(pid: int) -> int:
    """USS: the pages only this process has (private clean + dirty), KiB."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    except OSError:
        pass
    return total


def rss_kib(pid: int) -> int:
    """Resident memory of a process and its descendants (KiB)."""
    total, stack = 0, [pid]
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    while stack:
        current = stack.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
        stack.extend(children.get(current, []))
    return total


async def one_session(port: int, key, target: dict, started: asyncio.Event, results: dict) -> None:  # noqa: ANN001
    t0 = time.perf_counter()
    conn = await connect(port, key)
    chan, term = await open_terminal(conn, 120, 36)
    # the first screen whole: the rows and the search box above them (the rows come in the
    # app's first frame, the box's placeholder can come a frame after them)
    assert await term.wait_for(lambda: " people " in term.text() and "Everyone" in term.text()
                               and "Search name" in term.text(), timeout=300), term.text()
    results.setdefault("connect", []).append(time.perf_counter() - t0)
    await started.wait()  # every session is up: now the memory, then the searches
    rows = [i for i, line in enumerate(term.lines()) if "Search name" in line]
    assert rows, "\n".join(term.lines())
    search_row = rows[0]
    unfocused = term.look(search_row)
    chan.write(b"/")
    assert await term.wait_for(lambda: term.look(search_row) != unfocused, timeout=120)
    chan.write(target["fullnameAlphabet"].lower().encode())
    t1 = time.perf_counter()
    assert await term.wait_for(lambda: target["fullname"] in term.text() and "search \"" in term.text(), timeout=300), term.text()
    results.setdefault("search", []).append(time.perf_counter() - t1)
    results.setdefault("terms", []).append((conn, term))


async def run(sessions: int, home: Path, warm: bool) -> dict:
    import asyncssh

    from corpdir.server.demo import generate_tenant
    from corpdir.ssh.authorized import KeyRing
    from corpdir.ssh.server import DirectoryServer, ServerOptions

    key = asyncssh.generate_private_key("ssh-ed25519")
    (home / "authorized_keys").write_bytes(key.export_public_key())
    server = DirectoryServer(ServerOptions(keys=KeyRing.load(home / "authorized_keys"), host_key=home / "host_key", port=0,
                                          max_sessions=sessions, idle_timeout=None, warm=warm))
    await server.start()
    users = [u for u in generate_tenant(size=int(os.environ["CORPDIR_DEMO_SIZE"]), seed=1).users
             if u.get("fullnameAlphabet") and u.get("userType") == "REGULAR_USER"]
    template_pid = server.template.pid if server.template is not None else None
    results: dict = {"bench_cpu": time.process_time(), "template_cpu": cpu_seconds(template_pid) if template_pid else 0.0}
    started = asyncio.Event()
    tasks = [asyncio.create_task(one_session(server.port, key, users[-1 - i], started, results)) for i in range(sessions)]
    try:
        while len(results.get("connect", [])) < sessions:
            done, _ = await asyncio.wait(tasks, timeout=0.05, return_when=asyncio.FIRST_EXCEPTION)
            for t in done:
                if t.exception():
                    raise t.exception()  # a session that failed (refused, dropped) fails the run at once
        results["rss"] = [rss_kib(s.child.pid) for s in server.sessions]
        results["uss"] = [private_kib(s.child.pid) for s in server.sessions]
        results["cpu"] = [cpu_seconds(s.child.pid) for s in server.sessions]  # start to first screen and on since
        results["bench_cpu"] = time.process_time() - results["bench_cpu"]
        results["template_cpu"] = cpu_seconds(template_pid) - results["template_cpu"] if template_pid else 0.0
        started.set()
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for conn, _ in results.pop("terms", []):
            conn.close()
        await server.close()  # its sessions' apps end with it, whatever happened
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="1,5,20", help="sessions opened at once, comma-separated (default 1,5,20)")
    parser.add_argument("--size", type=int, default=500, help="demo tenant users (default 500, the embedded demo)")
    args = parser.parse_args()
    counts = [int(n) for n in args.counts.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["CORPDIR_DEMO_SIZE"] = str(args.size)
        t = time.perf_counter()
        prepare_demo_home(home)
        print(f"demo tenant of {args.size} users generated and synced in {time.perf_counter() - t:.1f} s; "
              f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}", flush=True)
        os.environ.update(demo_home_env(home))
        for n in counts:
            cold = asyncio.run(run(n, home, warm=False))
            warm = asyncio.run(run(n, home, warm=True))
            report(f"{n} at once, fresh process: first screen", cold["connect"], unit="s")
            report(f"{n} at once, warm fork: first screen", warm["connect"], cold["connect"], unit="s")
            report(f"{n} at once, warm fork: search to result", warm["search"], cold["search"], unit="s")
            report(f"{n} at once, CPU of an app to its first screen", warm["cpu"], cold["cpu"], unit="s")
            _, p95 = summary(warm["connect"])
            print(f"  warm fork p95 {p95:.2f} s against the goal of {GOAL_P95:.0f} s: ratio {p95 / GOAL_P95:.2f}")
            for name, result in (("fresh process", cold), ("warm fork", warm)):
                apps = sum(result["cpu"])
                print(f"  {name}, CPU until all {n} screens were up: apps {apps:.2f} s, this process (server, clients, "
                      f"pyte) {result['bench_cpu']:.2f} s, template {result['template_cpu']:.2f} s; over "
                      f"{os.cpu_count()} cores at least {(apps + result['bench_cpu']) / os.cpu_count():.2f} s")
            for name, result in (("fresh process", cold), ("warm fork", warm)):
                print(f"  {name}: RSS {sum(result['rss']) / 1024 / n:.1f} MiB a session, USS (private, what one "
                      f"more session adds) {sum(result['uss']) / 1024 / n:.1f} MiB a session; load "
                      f"{os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
