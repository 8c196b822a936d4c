"""Gateway benchmarks (issue 15), over a cache of 100k users + 100k contacts (built as
bench/cache_bench.py builds it):

- caller-name lookups over HTTP on loopback at 1, 8 and 64 concurrent clients: requests/s,
  p50, p99 (goal: p99 < 5 ms at 8 clients); baseline in the same run: the gateway's
  /health (the HTTP floor: uvicorn with nothing to look up);
- the same numbers looked up in OpenLDAP slapd (the same entries, loaded by slapadd,
  telephoneNumber and mobile indexed) by as many concurrent LDAP clients, with
  Yealink's number filter;
- a Cisco directory page and a Yealink full directory: time and size.

    python bench/gateway_bench.py [--size 100000] [--requests 4000]

Both kinds of client are the same lean asyncio code (keep-alive connections, requests
prepared before timing, replies read by their length), in one process of their own,
so the figures are the servers' and not a client library's. The gateway and slapd run
in processes of their own.
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
import sys, uvicorn
from corpdir.cache.store import CacheStore
from corpdir.client import DirectoryClient
from corpdir.config import ServiceSettings
from corpdir.gateway.app import build_app
from corpdir.gateway.settings import GatewaySettings
from corpdir.service.directory import DirectoryService

db, port = sys.argv[1], int(sys.argv[2])
settings = ServiceSettings(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
service = DirectoryService(None, CacheStore(db), settings, connect=lambda: DirectoryClient(settings))
app = build_app(service, GatewaySettings(token=sys.argv[3], sync_every=0))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
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
async def http_worker(port: int, requests: list[bytes], latencies: list[float], checks: list[bytes]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for request in requests:
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            if not head.startswith(b"HTTP/1.1 200"):
                checks.append(head.split(b"\r\n")[0] + b" " + body[:40])
    finally:
        writer.close()


def _ber_length(data: bytes, at: int) -> tuple[int, int]:
    first = data[at]
    if first < 0x80:
        return first, at + 1
    n = first & 0x7F
    return int.from_bytes(data[at + 1:at + 1 + n], "big"), at + 1 + n


async def ldap_worker(port: int, requests: list[bytes], latencies: list[float], checks: list[bytes]) -> None:
    """One connection, anonymous; each search's replies read until SearchResultDone."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for request in requests:
            started = time.perf_counter()
            writer.write(request)
            entries = 0
            while True:
                head = await reader.readexactly(2)
                if head[1] & 0x80:
                    extra = await reader.readexactly(head[1] & 0x7F)
                    length = int.from_bytes(extra, "big")
                else:
                    length = head[1]
                body = await reader.readexactly(length)
                _, at = _ber_length(body, 1)  # messageID INTEGER
                id_len = body[1]
                op = body[2 + id_len]
                if op == 0x64:
                    entries += 1
                elif op == 0x65:
                    break
            latencies.append(time.perf_counter() - started)
            if entries < 1:  # a company's main number is on many contacts: slapd returns them all
                checks.append(b"entries=%d" % entries)
    finally:
        writer.close()


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


async def load(worker, port: int, per_client: list[list[bytes]]) -> tuple[float, list[float], list[bytes]]:
    latencies: list[float] = []
    checks: list[bytes] = []
    started = time.perf_counter()
    await asyncio.gather(*(worker(port, reqs, latencies, checks) for reqs in per_client))
    return time.perf_counter() - started, latencies, checks


def figures(label: str, clients: int, wall: float, latencies: list[float], checks: list[bytes]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1e3
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e3
    line = (f"{label:<34} {clients:>3} clients  {len(ordered) / wall:8.0f} req/s   p50 {p50:7.3f} ms   "
            f"p99 {p99:7.3f} ms   n={len(ordered)}" + (f"   FAILED {len(checks)}: {checks[:2]}" if checks else ""))
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


def load_slapd(folder: Path, ldif_path: Path) -> tuple[subprocess.Popen, int, float]:
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from gateway.slapd import CONFIG, ROOT_DN, ROOT_PW, SUFFIX

    (folder / "db").mkdir(parents=True)
    conf = folder / "slapd.conf"
    conf.write_text(CONFIG.format(folder=folder, suffix=SUFFIX, root_dn=ROOT_DN, root_pw=ROOT_PW))
    suffix = folder / "suffix.ldif"
    suffix.write_text(f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n\n"
                      f"dn: ou=phonebook,{SUFFIX}\nobjectClass: organizationalUnit\nou: phonebook\n")
    started = time.perf_counter()
    slapd = shutil.which("slapadd") or "/usr/sbin/slapadd"
    subprocess.run([slapd, "-q", "-f", str(conf), "-l", str(suffix)], check=True)
    content = folder / "content.ldif"  # slapadd takes no 'version: 1' line (ldapadd does)
    content.write_text(ldif_path.read_text(encoding="utf-8").removeprefix("version: 1\n"), encoding="utf-8")
    subprocess.run([slapd, "-q", "-f", str(conf), "-l", str(content)], check=True)
    loaded = time.perf_counter() - started
    port = free_port()
    process = subprocess.Popen([shutil.which("slapd") or "/usr/sbin/slapd", "-d", "0", "-f", str(conf), "-h",
                                f"ldap://127.0.0.1:{port}/"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port, process)
    return process, port, loaded


def write_ldif(db: Path, path: Path) -> int:
    from corpdir.cache.store import CacheStore
    from corpdir.config import ServiceSettings
    from corpdir.gateway.ldap.ldif import ldif
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    async def run() -> int:
        settings = ServiceSettings(base_url="http://127.0.0.1:9/v1", api_key="bench-key")
        service = DirectoryService(None, CacheStore(db), settings, connect=lambda: None)
        phonebook = Phonebook(service)
        entries = await phonebook.entries()
        with path.open("w", encoding="utf-8") as out:
            for chunk in ldif(entries, "ou=phonebook,dc=example,dc=com"):
                out.write(chunk)
        phonebook.close()
        service.cache.close()
        return len(entries)

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=4000, help="lookups per concurrency level")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    db = OUT / f"cache-{args.size}.sqlite3"
    if not db.exists():
        from cache_bench import build

        seconds, records = build(db, args.size)
        print(f"built cache of {records} records in {seconds:.1f} s")
    numbers = pick_numbers(db, 1000)
    rng = random.Random(15)
    print(f"load average before: {os.getloadavg()}", flush=True)

    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port), TOKEN], env=env)
    results = []
    try:
        wait_port(port, server)
        import urllib.request

        urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{TOKEN}/cid?number={numbers[0]}").read()  # warm
        forms = pbx_forms(numbers, rng)

        def http(path: str) -> bytes:
            return f"GET /t/{TOKEN}{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()

        for clients in (1, 8, 64):
            base = [http("/health")] * (args.requests // 2)
            results.append(figures("baseline: GET /health (no lookup)", clients, *asyncio.run(load(http_worker, port, split(base, clients)))))
            reqs = [http(f"/cid?number={forms[i % len(forms)]}") for i in range(args.requests)]
            results.append(figures("gateway: caller name (plain text)", clients, *asyncio.run(load(http_worker, port, split(reqs, clients)))))

        for label, path, runs in (("Cisco directory page (32 rows)", "/cisco/directory.xml?start={start}", 20),
                                  ("Yealink full directory", "/yealink/directory.xml", 4)):
            times, size = [], 0
            for i in range(runs):
                started = time.perf_counter()
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{TOKEN}" + path.format(start=rng.randrange(150_000))).read()
                times.append(time.perf_counter() - started)
                size = len(body)
            line = (f"{label:<34} median {statistics.median(times) * 1e3:9.1f} ms   max {max(times) * 1e3:9.1f} ms   "
                    f"size {size / 1024:9.1f} KiB   n={runs} (first after start, rendering: {times[0] * 1e3:.1f} ms)")
            print(line, flush=True)
            results.append(line)
    finally:
        server.terminate()
        server.wait()

    with tempfile.TemporaryDirectory() as tmp:
        ldif_path = Path(tmp) / "phonebook.ldif"
        count = write_ldif(db, ldif_path)
        process, ldap_port, loaded = load_slapd(Path(tmp) / "slapd", ldif_path)
        print(f"slapd: {count} entries loaded by slapadd in {loaded:.1f} s", flush=True)
        try:
            base = "ou=phonebook,dc=example,dc=com"
            for clients in (1, 8, 64):
                reqs = [ldap_search_request(i + 1, base, national(numbers[i % len(numbers)])) for i in range(args.requests)]
                results.append(figures("slapd: (|(telephoneNumber=N)(mobile=N))", clients,
                                       *asyncio.run(load(ldap_worker, ldap_port, split(reqs, clients)))))
        finally:
            process.terminate()
            process.wait()
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
