"""Gateway benchmarks, over a cache of 100k users + 100k contacts (built as
bench/cache_bench.py builds it):

- caller-name lookups over HTTP on loopback at 1, 8 and 64 concurrent clients: requests/s,
  p50, p99 (goal: p99 < 5 ms at 8 clients); baselines in the same run: each server's
  /health (its HTTP floor, nothing looked up), and the same app on uvicorn (a general ASGI
  server, against the gateway's own on httptools and uvloop);
- the same numbers looked up in OpenLDAP slapd (the same entries, loaded by slapadd,
  telephoneNumber and mobile indexed) by as many concurrent LDAP clients, with
  Yealink's number filter;
- wrk (a C load generator; if installed) on the gateway's caller names, to show whether
  the Python client held the server back;
- a Cisco directory page and a Yealink full directory: time and size.

    python bench/gateway_bench.py [--size 100000] [--requests 4000] [--skip uvicorn|wrk|documents|slapd]

Both kinds of client are the same lean code (asyncio Protocol on uvloop, keep-alive
connections, requests prepared before timing, replies read by their framing), in one
process of their own, so the figures are the servers' and not a client library's. The
gateway and slapd run in processes of their own. Each concurrency level asks numbers of
its own (no number is asked twice of one server), as a PBX would send them (national,
E.164 with or without '+'); slapd gets the national number.
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

sys.path.insert(0, str(Path(__file__).parent))
OUT = Path(__file__).parent / "out"
TOKEN = "bench-token"

SERVER = """
import sys
from corpdir.cache.store import CacheStore
from corpdir.client import DirectoryClient
from corpdir.config import ServiceConfig
from corpdir.gateway.app import build_app
from corpdir.config import GatewayConfig
from corpdir.service.directory import DirectoryService

db, port, token, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
settings = ServiceConfig(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
service = DirectoryService(None, CacheStore(db), settings, connect=lambda: DirectoryClient(settings))
app = build_app(service, GatewayConfig(token=token, sync_every=0))
if kind == "uvicorn":  # the server the gateway ran on before its own (same app, httptools and uvloop)
    import uvicorn
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
else:  # what `corpdir gateway` runs
    from corpdir.gateway.httpserver import run
    run(app, app.fast, "127.0.0.1", port)
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


# -- lean clients ------------------------------------------------------------------------
class _Client(asyncio.Protocol):
    """One keep-alive connection: a request is written, its reply read by its framing (HTTP:
    Content-Length; LDAP: BER lengths up to SearchResultDone), then the next. asyncio's
    Protocol on uvloop, so the client costs a few microseconds a request, not the
    tens a StreamReader's awaits cost: both servers share the machine's 2 cores with it."""

    def __init__(self, complete) -> None:
        self.complete = complete  # bytes -> (reply length, ok) or None while incomplete
        self.buffer = bytearray()
        self.waiter: asyncio.Future | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        done = self.complete(self.buffer)
        if done is not None and self.waiter is not None and not self.waiter.done():
            del self.buffer[:done[0]]
            self.waiter.set_result(done[1])

    def connection_lost(self, exc) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("closed"))

    async def ask(self, request: bytes):
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return await self.waiter


def http_reply(buffer: bytearray):
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    at = buffer.find(b"content-length:", 0, end)
    start = at + 15
    length = int(buffer[start:buffer.index(b"\r\n", start)])
    total = end + 4 + length
    if len(buffer) < total:
        return None
    return total, bytes(buffer[:12]) == b"HTTP/1.1 200"


async def worker(client: _Client, requests: list[bytes], latencies: list[float], checks: list[str]) -> None:
    clock = time.perf_counter
    for request in requests:
        started = clock()
        ok = await client.ask(request)
        latencies.append(clock() - started)
        if not ok:  # an HTTP answer other than 200, or an LDAP search that found nobody
            checks.append(request.split(b"\r\n")[0].decode() if request.startswith(b"GET") else "found nobody")


def _ber_length(data: bytes | bytearray, at: int) -> tuple[int, int]:
    """(length, where the content starts) of the BER length at ``at``."""
    first = data[at]
    if first < 0x80:
        return first, at + 1
    n = first & 0x7F
    return int.from_bytes(data[at + 1:at + 1 + n], "big"), at + 1 + n


def ldap_reply(buffer: bytearray):
    """Every message of one search's reply, up to its SearchResultDone; ok: an entry came
    (a company's main number is on many contacts: slapd returns them all)."""
    at, entries = 0, 0
    while at + 2 <= len(buffer):
        length, body = _ber_length(buffer, at + 1)
        if body + length > len(buffer):
            return None
        id_len = buffer[body + 1]
        op = buffer[body + 2 + id_len]
        at = body + length
        if op == 0x64:
            entries += 1
        elif op == 0x65:
            return at, entries > 0
    return None


def ldap_search_request(message_id: int, base: str, number: str) -> bytes:
    from ldap3 import DEREF_NEVER, SUBTREE
    from ldap3.operation.search import search_operation
    from ldap3.protocol.rfc4511 import LDAPMessage, MessageID, ProtocolOp
    from pyasn1.codec.ber import encoder

    filter_ = f"(|(telephoneNumber={number})(mobile={number}))"  # Yealink's number filter
    request = search_operation(base, filter_, SUBTREE, DEREF_NEVER, ["displayName"], 0, 0, False, True, True, None, None)
    message = LDAPMessage()
    message["messageID"] = MessageID(message_id)
    message["protocolOp"] = ProtocolOp().setComponentByName("searchRequest", request)
    return encoder.encode(message)


def _loop_factory():
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


_runner = asyncio.Runner(loop_factory=_loop_factory)


def load(complete, port: int, per_client: list[list[bytes]]) -> tuple[float, list[float], list[str]]:
    latencies: list[float] = []
    checks: list[str] = []

    async def run() -> float:
        # the connections are open before the clock starts: 64 connects at once and the first
        # request on each, queued behind them, would otherwise be what the figures measure
        loop = asyncio.get_running_loop()
        opened = [await loop.create_connection(lambda: _Client(complete), "127.0.0.1", port) for _ in per_client]
        try:
            started = time.perf_counter()
            await asyncio.gather(*(worker(client, reqs, latencies, checks) for (_, client), reqs in zip(opened, per_client)))
            return time.perf_counter() - started
        finally:
            for transport, _ in opened:
                transport.close()

    return _runner.run(run()), latencies, checks


def figures(label: str, clients: int, wall: float, latencies: list[float], checks: list[bytes]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1e3
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e3
    line = (f"{label:<34} {clients:>3} clients  {len(ordered) / wall:8.0f} req/s   p50 {p50:7.3f} ms   "
            f"p99 {p99:7.3f} ms   n={len(ordered)}" + (f"   {len(checks)} not found: {checks[:2]}" if checks else ""))
    print(line, flush=True)
    return line


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


def split(requests: list[bytes], clients: int) -> list[list[bytes]]:
    return [requests[i::clients] for i in range(clients)]


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
        suffix.write_text(f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n\n"
                          f"dn: ou=phonebook,{SUFFIX}\nobjectClass: organizationalUnit\nou: phonebook\n")
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
    from corpdir.cache.store import CacheStore
    from corpdir.config import ServiceConfig
    from corpdir.gateway.ldap.ldif import ldif
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    async def run() -> int:
        settings = ServiceConfig(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
        service = DirectoryService(None, CacheStore(db), settings, connect=lambda: None)
        phonebook = Phonebook(service)
        entries = await phonebook.entries()
        with path.open("w", encoding="utf-8") as out:
            for chunk in ldif(entries, "ou=phonebook,dc=example,dc=com"):
                out.write(chunk)
        phonebook.close()
        await service.close()
        return len(entries)

    return asyncio.run(run())


def start_gateway(db: Path, kind: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port), TOKEN, kind], env=env)
    wait_port(port, server)
    return server, port


def http(path: str) -> bytes:
    return f"GET /t/{TOKEN}{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


def interleaved(targets: dict[str, tuple], rounds: int, results: list[str]) -> None:
    """Each concurrency level in ``rounds`` rounds; in each round every target (label ->
    (reply framing, port, requests per level)) gets the same slice of the level's
    requests, one target after the other. Other engineers' test runs come and go on this
    machine: interleaving gives each server the same share of that noise, and the figures
    pool every round (requests/s = all requests / all wall time; p50, p99 of all)."""
    for level, clients in enumerate((1, 8, 64)):
        pooled = {label: ([], [], 0.0) for label in targets}
        for r in range(rounds):
            order = list(targets.items())
            order = order[r % len(order):] + order[:r % len(order)]  # each target first in turn
            for label, (complete, port, requests) in order:
                chunk = requests[level][r::rounds]
                wall, latencies, checks = load(complete, port, split(chunk, clients))
                lat, chk, total = pooled[label]
                pooled[label] = (lat + latencies, chk + checks, total + wall)
        for label, (latencies, checks, total) in pooled.items():
            results.append(figures(label, clients, total, latencies, checks))


def bench_wrk(port: int, forms: list[list[str]], results: list[str]) -> None:
    """The same caller-name requests from wrk (a C load generator), when it is installed:
    whether the Python client above, on the same 2 cores, held the server back."""
    wrk = shutil.which("wrk")
    if wrk is None:
        print("wrk not installed: no C load generator figures (apt-get install wrk)", flush=True)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for level, clients in enumerate((1, 8, 64)):
            script = Path(tmp) / "paths.lua"
            paths = ",".join(f'"/t/{TOKEN}/cid?number={n}"' for n in forms[level])
            script.write_text(f"paths = {{{paths}}}\ni = 0\nrequest = function()\n  i = i % #paths + 1\n"
                              "  return wrk.format(\"GET\", paths[i])\nend\n")
            out = subprocess.run([wrk, "-t1", f"-c{clients}", "-d4s", "--latency", "-s", str(script),
                                  f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
            rps = next(line.split()[1] for line in out.splitlines() if line.startswith("Requests/sec"))
            pct = {p.split()[0]: p.split()[1] for p in out.splitlines() if p.strip().endswith("ms") or p.strip().endswith("us")
                   if p.strip().split()[0] in ("50%", "99%")}
            line = (f"{'wrk -> gateway: caller name':<34} {clients:>3} clients  {float(rps):8.0f} req/s   "
                    f"p50 {pct.get('50%', '?'):>9}   p99 {pct.get('99%', '?'):>9}   (4 s)")
            print(line, flush=True)
            results.append(line)


def bench_during_render(port: int, forms: list[str], results: list[str]) -> None:
    """Caller names at 8 clients while the server renders the Yealink full directory for
    the first time (on threads, sharing the GIL with the event loop): what a lookup pays
    while a phone downloads the whole directory. Call before anything asked for it."""
    import threading
    import urllib.request

    rendered = threading.Event()
    took: list[float] = []

    def download() -> None:
        started = time.perf_counter()
        urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{TOKEN}/yealink/directory.xml").read()
        took.append(time.perf_counter() - started)
        rendered.set()

    threading.Thread(target=download, daemon=True).start()
    reqs = [http(f"/cid?number={n}") for n in forms]
    results.append(figures("caller name during a Yealink render", 8, *load(http_reply, port, split(reqs, 8))))
    if rendered.is_set():
        results.append("  (the render ended before these lookups did: not all of them overlapped it)")
        print(results[-1], flush=True)
    rendered.wait()
    line = f"{'Yealink full directory, first ask':<34} {took[0]:9.1f} s (rendered once per state of the cache)"
    print(line, flush=True)
    results.append(line)


def bench_documents(port: int, rng: random.Random, results: list[str]) -> None:
    import urllib.request

    for label, path, runs in (("Cisco directory page (32 rows)", "/cisco/directory.xml?start={start}", 20),
                              ("Yealink full directory", "/yealink/directory.xml", 4)):
        times, size = [], 0
        for i in range(runs):
            started = time.perf_counter()
            body = urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{TOKEN}" + path.format(start=rng.randrange(150_000))).read()
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=4000, help="lookups per concurrency level and server")
    parser.add_argument("--rounds", type=int, default=4, help="rounds each level is split into, servers interleaved")
    parser.add_argument("--skip", action="append", default=[], choices=["uvicorn", "wrk", "documents", "slapd"])
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    db = OUT / f"cache-{args.size}.sqlite3"
    if not db.exists():
        from cache_bench import build

        seconds, records = build(db, args.size)
        print(f"built cache of {records} records in {seconds:.1f} s")
    flat = pick_numbers(db, 3 * args.requests)
    numbers = [flat[i * args.requests:(i + 1) * args.requests] for i in range(3)]
    rng = random.Random(15)
    forms = [pbx_forms(level, rng) for level in numbers]
    servers: list[subprocess.Popen] = []
    results: list[str] = []
    try:
        gateway, port = start_gateway(db, "gateway")
        servers.append(gateway)
        health = [[http("/health")] * (args.requests // 2)] * 3
        caller = [[http(f"/cid?number={n}") for n in level] for level in forms]
        targets: dict[str, tuple] = {"gateway baseline: GET /health": (http_reply, port, health),
                                     "gateway: caller name (plain text)": (http_reply, port, caller)}
        if "uvicorn" not in args.skip:
            on_uvicorn, uvicorn_port = start_gateway(db, "uvicorn")
            servers.append(on_uvicorn)
            targets["uvicorn baseline: GET /health"] = (http_reply, uvicorn_port, health)
            targets["same app on uvicorn: caller name"] = (http_reply, uvicorn_port, caller)
        if "slapd" not in args.skip:
            slapd, ldap_port = start_slapd(db, args.size)
            servers.append(slapd)
            base = "ou=phonebook,dc=example,dc=com"
            searches = [[ldap_search_request(i + 1, base, national(n)) for i, n in enumerate(level)] for level in numbers]
            targets["slapd: (|(telephoneNumber=N)(mobile=N))"] = (ldap_reply, ldap_port, searches)
        print(f"load average before: {os.getloadavg()}", flush=True)
        interleaved(targets, args.rounds, results)
        print(f"load average after the lookups: {os.getloadavg()}", flush=True)
        if "wrk" not in args.skip:
            bench_wrk(port, forms, results)
        if "documents" not in args.skip:
            bench_during_render(port, forms[1][::-1], results)  # the 8-client level's numbers again
            bench_documents(port, rng, results)
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    bench_probe(db, [f for level in forms for f in level], results)
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
