"""Caller-ID under a load generator that is not the bottleneck: the gateway's ``/cid``
against OpenLDAP slapd answering the same numbers, with nginx serving a 13-byte file as
the machine's HTTP floor, at 1, 8 and 64 keep-alive connections, in one run, interleaved.

    python bench/gateway_bench.py                      # 100k users + 100k contacts
    python bench/gateway_bench.py --size 10000 --seconds 2   # quick, on a busy machine

- the gateway (``--workers``, default the gateway's own: one a core but one) over a cache built as
  bench/cache_bench.py builds it, asked for numbers as a PBX sends them (national, E.164
  with or without '+'), spread over the tenant, by two generators: wrk (one thread, one
  epoll loop, closed loop; a Lua script gives each request) and bench/http_load.c (the twin
  of the LDAP client below: a thread a blocking connection, the same clock and
  percentiles); ``--also-workers N`` (default: one a core) runs a second one with N workers
  in the same rounds (wrk), ``--against SRC`` one from another tree (wrk);
- slapd with the same entries (slapadd, telephoneNumber and mobile indexed eq), asked
  Yealink's number filter with the national number by bench/ldap_load.c (compiled here
  against libldap: Debian libldap-dev), a thread a connection, closed loop;
- nginx, one worker a core, serving a 13-byte file, by both HTTP generators.

Why two HTTP generators: the goal is a p99 no higher than slapd's, and a tail is partly
the client's. Measured by wrk, even nginx's 13-byte file has a p99 at one connection about
twice what the same nginx has under http_load.c, and about slapd's under ldap_load.c. So
the verdict compares the gateway and slapd each under its thread-a-connection C client
(the same kind of generator), and wrk's figures are printed beside them.

Every server is first asked for ``--seconds`` at 8 connections, not counted (slapd's first
pass reads its database from disk). Each level is split into ``--rounds``; in each round
every server and generator gets ``--seconds`` of load, one after the other, the order
rotated each round, so other processes on the machine fall on every one alike. Printed per server,
generator and level: requests/s over all rounds, p50 and p99 (the median of the rounds'
and the worst), the generator's CPU as a share of the wall time (it had headroom when well
under 100 %), the server's CPU per request; then per level the gateway/slapd ratio of
requests/s and the two p99s; the load average before and after. ``--skip documents|probe``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).parent))
import _loadgen  # noqa: E402 - bench/ is not a package

OUT = Path(__file__).parent / "out"
TOKEN = "bench-token"
LEVELS = (1, 8, 64)
WRK, C_CLIENT = "(wrk)", "(C client)"  # a target's label: the server, then its generator
BASE = "ou=phonebook,dc=example,dc=com"

SERVER = """
import sys
from corpdir.cache.store import CacheStore
from corpdir.client import DirectoryClient
from corpdir.config import GatewayConfig, ServiceConfig
from corpdir.gateway.app import build_app
from corpdir.service.directory import DirectoryService

db, port, token, workers = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
settings = ServiceConfig(base_url="http://127.0.0.1:9/v1", api_key="bench-key")


def app(primary=True):
    service = DirectoryService(None, CacheStore(db), settings, connect=lambda: DirectoryClient(settings))
    return build_app(service, GatewayConfig(token=token, sync_every=0))


try:  # what `corpdir gateway` runs
    from corpdir.gateway.http_workers import serve
except ImportError:  # a tree from before the gateway had workers (--against)
    from corpdir.gateway.httpserver import run
    gateway = app()
    run(gateway, gateway.fast, "127.0.0.1", port)
else:
    serve(app, "127.0.0.1", port, workers)
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited: {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit("server did not start")


def wait_precomputed(port: int, number: str, seconds: float = 900) -> float:
    """Wait until every worker answers from its precomputed replies (their Server-Timing
    says 0: twenty new connections in a row, which the kernel spreads over the workers);
    returns the seconds waited. The rebuild after a start is not what the bench measures."""
    import http.client

    started = deadline = time.monotonic()
    deadline += seconds
    in_a_row = 0
    while in_a_row < 20:
        if time.monotonic() > deadline:
            raise SystemExit("the gateway's replies were never precomputed")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/t/{TOKEN}/cid?number={number}")
        answer = conn.getresponse()
        answer.read()
        conn.close()
        in_a_row = in_a_row + 1 if answer.getheader("server-timing") == "lookup;dur=0.000" else 0
        if not in_a_row:
            time.sleep(0.2)
    return time.monotonic() - started


def national(number: str) -> str:
    """'+81312345678' -> '0312345678' (as a phone's LDAP search gets it); digits otherwise."""
    from corpdir.phone import digits

    return "0" + number[3:] if number.startswith("+81") else digits(number)


def pbx_forms(numbers: list[str], rng: random.Random) -> list[str]:
    """Each number as a PBX may send it: national digits, E.164 without or with the '+'."""
    from corpdir.phone import digits, e164

    forms = []
    for n in numbers:
        full = e164(n)
        forms.append(rng.choice([national(full), full[1:], "%2B" + full[1:]]) if full else digits(n))
    return forms


# -- the run -------------------------------------------------------------------------------
def pick_numbers(db: Path, count: int) -> list[str]:
    """Numbers of users and shared contacts (no fax: phones' LDAP filters do not ask for it),
    as the cache's phone index keys them (E.164 where the number has one)."""
    import sqlite3

    from corpdir.cache.fields import CODES

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    fax = CODES["faxNum"]
    rows = conn.execute(
        "SELECT key FROM (SELECT key FROM user_phones WHERE field != ?1 UNION ALL"
        " SELECT p.key FROM contact_phones p JOIN contacts c ON c.id = p.id WHERE p.field != ?1 AND c.directory = 'SHARED')"
        " WHERE length(key) > 6 ORDER BY random() LIMIT ?2", (fax, count)).fetchall()
    conn.close()
    return [r[0] for r in rows]


def load_slapd(folder: Path, db: Path) -> tuple[subprocess.Popen, int, str]:
    """slapd on ``folder`` (its config and mdb database), the cache's entries loaded by
    slapadd once per state of the cache file (kept in bench/out: loading takes minutes)."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from gateway.slapd import CONFIG, ROOT_DN, ROOT_PW, SUFFIX

    conf = folder / "slapd.conf"
    stamp = folder / "loaded-from"
    wanted = f"{db} {db.stat().st_mtime_ns}"
    if not stamp.exists() or stamp.read_text() != wanted:
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "db").mkdir(parents=True)
        conf.write_text(CONFIG.format(folder=folder, suffix=SUFFIX, root_dn=ROOT_DN, root_pw=ROOT_PW))
        ldif_path = folder / "content.ldif"
        count = write_ldif(db, ldif_path)
        suffix = folder / "suffix.ldif"
        # the suffix only: the export's LDIF starts with its own base entry (ou=phonebook)
        suffix.write_text(f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n")
        started = time.perf_counter()
        slapadd = shutil.which("slapadd") or "/usr/sbin/slapadd"
        subprocess.run([slapadd, "-q", "-f", str(conf), "-l", str(suffix)], check=True)
        # slapadd takes no 'version: 1' line (ldapadd does)
        ldif_path.write_text(ldif_path.read_text(encoding="utf-8").removeprefix("version: 1\n"), encoding="utf-8")
        subprocess.run([slapadd, "-q", "-f", str(conf), "-l", str(ldif_path)], check=True)
        ldif_path.unlink()
        stamp.write_text(wanted)
        how = f"{count} entries loaded by slapadd in {time.perf_counter() - started:.1f} s"
    else:
        how = "entries loaded earlier by slapadd from the same cache file"
    port = free_port()
    process = subprocess.Popen([shutil.which("slapd") or "/usr/sbin/slapd", "-d", "0", "-f", str(conf), "-h",
                                f"ldap://127.0.0.1:{port}/"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port, process)
    return process, port, how


def write_ldif(db: Path, path: Path) -> int:
    """The cache's phonebook as `corpdir export --format ldif` writes it (its base entry first)."""
    from corpdir.cache.store import CacheStore
    from corpdir.config import ServiceConfig
    from corpdir.gateway.ldap.export import write_ldif as export
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    async def run() -> int:
        settings = ServiceConfig(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
        service = DirectoryService(None, CacheStore(db), settings, connect=lambda: None)
        phonebook = Phonebook(service, one_pass=True)
        try:
            with path.open("w", encoding="utf-8") as out:
                return await export(phonebook, BASE, ("user", "contact"), out)
        finally:
            phonebook.close()
            await service.close()

    return asyncio.run(run())


def start_gateway(db: Path, src: Path, workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port), TOKEN, str(workers)], env=env)
    wait_port(port, server)
    return server, port


def bench_documents(port: int, rng: random.Random, results: list[str], people: int) -> None:
    """A Cisco page from a random start among the tenant's entries, and the Yealink full
    directory (rendered once per state of the cache, then served), one request at a time."""
    import urllib.request

    for label, path, runs in (("Cisco directory page (32 rows)", "/cisco/directory.xml?start={start}", 20),
                              ("Yealink full directory", "/yealink/directory.xml", 4)):
        times, size = [], 0
        for i in range(runs):
            started = time.perf_counter()
            body = urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{TOKEN}" + path.format(start=rng.randrange(people))).read()
            times.append(time.perf_counter() - started)
            size = len(body)
        line = (f"{label:<34} median {statistics.median(times) * 1e3:9.1f} ms   max {max(times) * 1e3:9.1f} ms   "
                f"size {size / 1024:9.1f} KiB   n={runs} (the first: {times[0] * 1e3:.1f} ms)")
        print(line, flush=True)
        results.append(line)


def start_slapd(db: Path, size: int) -> tuple[subprocess.Popen, int]:
    process, ldap_port, how = load_slapd(OUT / f"slapd-{size}", db)
    print(f"slapd: {how}", flush=True)
    return process, ldap_port


def bench_probe(db: Path, forms: list[str], results: list[str]) -> None:
    """The cache probe alone, in this process (number forms, the indexed query, one record
    decoded): what a caller-ID answer costs the event loop it runs on."""
    from urllib.parse import unquote

    from corpdir.cache.store import CacheStore
    from corpdir.config import ServiceConfig
    from corpdir.gateway.lookup import CallerLookup
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    settings = ServiceConfig(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
    service = DirectoryService(None, CacheStore(db), settings, connect=lambda: None)
    phonebook = Phonebook(service)
    lookup = CallerLookup(phonebook, None, deadline=0.3, strip_prefixes=["0", "9"])
    times = []
    for number in forms:
        started = time.perf_counter()
        lookup.now(unquote(number), started, 1)
        times.append(time.perf_counter() - started)
    phonebook.close()
    asyncio.run(service.close())
    ordered = sorted(times)
    line = (f"{'cache probe (no HTTP), per number':<34}      median {statistics.median(ordered) * 1e6:7.1f} us   "
            f"p99 {ordered[int(len(ordered) * 0.99)] * 1e6:7.1f} us   n={len(ordered)}")
    print(line, flush=True)
    results.append(line)


def interleaved(targets: dict[str, Callable[[int], _loadgen.Run]], rounds: int) -> dict[tuple[str, int], list[_loadgen.Run]]:
    """Each target once, not counted (warm caches); then each level in ``rounds`` rounds; in
    each round every target (label -> run at a number of connections) in turn, the order
    rotated a share further each round: the machine's other work falls on all alike."""
    for run in targets.values():  # warm: slapd's first pass reads its database from disk (97 us a search, 44 warm)
        run(8)
        _loadgen.settle()
    runs: dict[tuple[str, int], list[_loadgen.Run]] = {}
    for connections in LEVELS:
        for r in range(rounds):
            order = list(targets.items())
            first = r * len(order) // rounds % len(order)  # the first place moves evenly over the targets
            for label, run in order[first:] + order[:first]:
                runs.setdefault((label, connections), []).append(run(connections))
                _loadgen.settle()
    return runs


def report(runs: dict[tuple[str, int], list[_loadgen.Run]]) -> list[str]:
    lines, rate, p99 = [], {}, {}
    for (label, connections), done in runs.items():
        requests, wall = sum(r.requests for r in done), sum(r.seconds for r in done)
        rate[label, connections] = requests / wall
        p99s = sorted(r.p99_us for r in done)
        p99[label, connections] = statistics.median(p99s) / 1e3
        lines.append(f"{label:<32} {connections:>3} conns {requests / wall:9.0f} req/s  p50 {statistics.median(r.p50_us for r in done) / 1e3:7.3f} ms"
                     f"  p99 {p99[label, connections]:7.3f} ms (worst {p99s[-1] / 1e3:.3f})"
                     f"  generator CPU {sum(r.generator_cpu for r in done) / wall:4.0%}"
                     f"  server {sum(r.server_cpu for r in done) / requests * 1e6:6.1f} us/req"
                     + (f"  {sum(r.missed for r in done)} not found" if any(r.missed for r in done) else "")
                     + (f"  {sum(r.errors for r in done)} ERRORS" if any(r.errors for r in done) else ""))
    slapd = f"slapd {C_CLIENT}"
    for connections in LEVELS:
        for label in sorted({label for label, _ in runs if label.startswith("gateway")}):
            if (slapd, connections) in rate:
                ratio, ours, theirs = rate[label, connections] / rate[slapd, connections], p99[label, connections], p99[slapd, connections]
                lines.append(f"{label} / slapd at {connections:>2} connections: {ratio:.2f}x requests/s, p99 {ours:.3f} vs {theirs:.3f} ms"
                             + (f"  -> at or above slapd: {'yes' if ratio >= 1 and ours <= theirs else 'NO'}"
                                if label == f"gateway {C_CLIENT}" else ""))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000, help="users (and as many contacts) in the cache")
    parser.add_argument("--seconds", type=int, default=3, help="load per server, level and round (whole seconds: wrk takes no fraction)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds each level is split into, servers interleaved")
    parser.add_argument("--workers", type=int, help="gateway worker processes (default: the gateway's default)")
    parser.add_argument("--also-workers", type=int, default=os.cpu_count() or 1,
                        help="a second gateway with this many workers in the same rounds (0: none; default one a core)")
    parser.add_argument("--numbers", type=int, default=20_000, help="numbers spread over the tenant")
    parser.add_argument("--against", type=Path, help="another tree's src/: its gateway in the same rounds")
    parser.add_argument("--skip", action="append", default=[], choices=["documents", "probe"])
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    db = OUT / f"cache-{args.size}.sqlite3"
    if not db.exists():
        from cache_bench import build

        seconds, records = build(db, args.size)
        print(f"built cache of {records} records in {seconds:.1f} s")
    numbers = pick_numbers(db, args.numbers)
    forms = pbx_forms(numbers, random.Random(15))
    ldap_load, http_load = _loadgen.build_client(OUT, "ldap_load"), _loadgen.build_client(OUT, "http_load")
    servers: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "numbers.txt").write_text("\n".join(national(n) for n in numbers) + "\n")
        paths = [f"/t/{TOKEN}/cid?number={n}" for n in forms]
        script = _loadgen.wrk_script(folder, "cid", paths)
        floor = _loadgen.wrk_script(folder, "floor", ["/floor.txt"])
        (folder / "paths.txt").write_text("\n".join(paths) + "\n")
        (folder / "floor.txt").write_text("/floor.txt\n")
        try:
            from corpdir.gateway.http_workers import worker_count

            src, workers = Path(__file__).parents[1] / "src", worker_count(args.workers)
            trees = {"gateway": (src, workers),
                     **({f"gateway, {args.also_workers} workers": (src, args.also_workers)}
                        if args.also_workers and args.also_workers != workers else {}),
                     **({"gateway --against": (args.against, workers)} if args.against else {})}
            targets: dict[str, Callable[[int], _loadgen.Run]] = {}
            pids: dict[str, int] = {}
            ports: dict[str, int] = {}
            for label, (src, count) in trees.items():
                gateway, port = start_gateway(db, src, count)
                servers.append(gateway)
                pids[label], ports[label] = gateway.pid, port
                if label != "gateway --against":  # another tree may answer without a precomputed map
                    print(f"{label}{f' ({count} worker)' if count == 1 else ''}: replies precomputed "
                          f"{wait_precomputed(port, forms[0]):.1f} s after it listened", flush=True)
                targets[f"{label} {WRK}"] = lambda c, port=port, pid=gateway.pid: _loadgen.wrk(
                    f"http://127.0.0.1:{port}", script, c, args.seconds, pid)
                if label == "gateway":
                    targets[f"{label} {C_CLIENT}"] = lambda c, port=port, pid=gateway.pid: _loadgen.http_load(
                        http_load, port, folder / "paths.txt", c, args.seconds, pid)
            slapd, ldap_port = start_slapd(db, args.size)
            servers.append(slapd)
            pids["slapd"] = slapd.pid
            targets[f"slapd {C_CLIENT}"] = lambda c: _loadgen.ldap_load(ldap_load, f"ldap://127.0.0.1:{ldap_port}", BASE,
                                                            folder / "numbers.txt", c, args.seconds, slapd.pid)
            nginx_port = free_port()
            nginx = _loadgen.start_nginx(OUT / "nginx", nginx_port, os.cpu_count() or 1)
            servers.append(nginx)
            pids["nginx"] = nginx.pid
            wait_port(nginx_port, nginx)
            targets[f"nginx 13-byte file {WRK}"] = lambda c: _loadgen.wrk(f"http://127.0.0.1:{nginx_port}", floor, c,
                                                                         args.seconds, nginx.pid)
            targets[f"nginx 13-byte file {C_CLIENT}"] = lambda c: _loadgen.http_load(
                http_load, nginx_port, folder / "floor.txt", c, args.seconds, nginx.pid)
            print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.size} users + {args.size} contacts,"
                  f" {len(numbers)} numbers, gateway workers {workers}, nginx workers a core, {os.cpu_count()} cores;"
                  f" load average before: {os.getloadavg()}", flush=True)
            results = report(interleaved(targets, args.rounds))
            print("\n".join(results))
            print(f"load average after: {os.getloadavg()}", flush=True)
            print("resident (the process and its workers): " + ", ".join(
                f"{label} {_loadgen.process_tree_rss(pid):.0f} MiB" for label, pid in pids.items()), flush=True)
            if "documents" not in args.skip:
                bench_documents(ports["gateway"], random.Random(15), [], args.size)
        finally:
            for server in servers:
                server.terminate()
                server.wait()
    if "probe" not in args.skip:
        bench_probe(db, forms[:4000], [])


if __name__ == "__main__":
    main()
