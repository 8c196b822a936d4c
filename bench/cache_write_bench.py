"""Cache write rate and size: users and contacts of the demo
generator written as a sync writes them (pages of 100, each in one transaction with its
indexes, or several pages in one when they waited for the cache: ``--pages-per-write``,
by default both one and the sync's most), then the file's size after VACUUM, per record
and per table.

    python bench/cache_write_bench.py [--size 10000] [--slapd] [--pages-per-write 1,10]

Goals: >= 5,000 records/s; <= 1.3 KB a record at 100k users + 100k contacts. Printed in
the same run: the load average, wall and CPU rates, and (``--slapd``) the size of an
OpenLDAP mdb database holding the same people with eq and substring indexes, loaded by
slapadd, as the baseline the issue names (cache <= 2x slapd).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cache_bench import as_responses  # noqa: E402

from corpdir.cache.store import CacheStore  # noqa: E402
from corpdir.cache.sync import RECORDS_PER_WRITE  # noqa: E402

OUT = Path(__file__).parent / "out"
PAGE = 100


def records(size: int) -> dict[str, list[dict]]:
    """The demo tenant's users, contacts and divisions as the service sends them (kept in
    bench/out as JSON: generating 100k + 100k takes a while on a loaded machine)."""
    path = OUT / f"records-{size}.json"
    if not path.exists():
        from corpdir.server.demo import generate_tenant

        tenant = generate_tenant(size=size, contacts=size, seed=1)
        users, contacts = as_responses(tenant)
        OUT.mkdir(exist_ok=True)
        path.write_text(json.dumps({"users": users, "contacts": contacts, "divisions": tenant.divisions},
                                   ensure_ascii=False, default=str))
    return json.loads(path.read_text())


def write(db: Path, data: dict[str, list[dict]], pages: int) -> tuple[float, float, int]:
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    store = CacheStore(db)
    store.put_divisions(data["divisions"])
    wall, cpu = time.perf_counter(), time.process_time()
    for table in ("users", "contacts"):
        rows = data[table]
        for start in range(0, len(rows), PAGE * pages):
            store.put(table, rows[start:start + PAGE * pages], generation=1)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    store.close()
    return wall, cpu, len(data["users"]) + len(data["contacts"])


def read_rate(db: Path, sample: int = 20_000) -> None:
    """Records read back and expanded (what every list page, export and rewrite pays)."""
    store = CacheStore(db)
    blobs = [row[0] for row in store._rows(f"SELECT data FROM users LIMIT {sample}")]
    blobs += [row[0] for row in store._rows(f"SELECT data FROM contacts LIMIT {sample}")]
    started = time.process_time()
    for blob in blobs:
        store.codec.load(blob)
    cpu = time.process_time() - started
    store.close()
    print(f"cache read: {len(blobs)} records expanded and parsed, {cpu / len(blobs) * 1e6:.1f} us CPU a record")


def vacuumed_size(db: Path, records: int) -> None:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    size = db.stat().st_size
    print(f"cache after VACUUM: {size / 2**20:.1f} MiB, {size / records:.0f} bytes a record ({records} records)")
    try:
        tables = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
        print("  by table: " + ", ".join(f"{name} {total / records:.0f}" for name, total in tables if total / records >= 1))
    except sqlite3.OperationalError:
        pass  # no dbstat in this SQLite build
    conn.close()


def _ldif(users: list[dict]) -> str:
    out = ["dn: dc=corp,dc=example\nobjectClass: dcObject\nobjectClass: organization\no: corp\ndc: corp\n",
           "dn: ou=people,dc=corp,dc=example\nobjectClass: organizationalUnit\nou: people\n"]
    for u in users:
        lines = [f"dn: uid={u['userId']},ou=people,dc=corp,dc=example", "objectClass: inetOrgPerson",
                 f"uid: {u['userId']}", f"cn: {u.get('fullname') or u['userId']}", f"sn: {(u.get('fullname') or '-').split(' ')[0]}"]
        for attr, field in (("displayName", "fullnameAlphabet"), ("mail", "email1"), ("employeeNumber", "employeeNum"),
                            ("title", "position"), ("ou", "post")):
            if u.get(field):
                lines.append(f"{attr}: {u[field]}")
        if u.get("fullnameKana"):
            lines.append(f"givenName: {u['fullnameKana']}")
        for field in ("extensionNum", "phoneNum", "companyMobileNum", "mobileNum", "faxNum"):
            if u.get(field):
                lines.append(f"{'mobile' if 'obile' in field else 'telephoneNumber'}: {u[field]}")
        out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def slapd_size(people: list[dict]) -> None:
    """slapadd the same people into an mdb database (telephoneNumber/mail eq, cn/displayName
    /givenName eq+sub); print its size per person."""
    if not shutil.which("slapadd"):
        print("slapd baseline: slapadd not installed")
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db"
        db.mkdir()
        conf = Path(tmp) / "slapd.conf"
        conf.write_text(
            "include /etc/ldap/schema/core.schema\ninclude /etc/ldap/schema/cosine.schema\n"
            "include /etc/ldap/schema/inetorgperson.schema\nmodulepath /usr/lib/ldap\nmoduleload back_mdb\n"
            f"database mdb\nsuffix dc=corp,dc=example\ndirectory {db}\nmaxsize 4294967296\n"
            "index objectClass eq\nindex uid,telephoneNumber,mobile,mail,employeeNumber eq\n"
            "index cn,sn,displayName,givenName eq,sub\n")
        ldif = Path(tmp) / "people.ldif"
        ldif.write_text(_ldif(people))
        started = time.perf_counter()
        done = subprocess.run(["slapadd", "-q", "-f", str(conf), "-l", str(ldif)], capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if done.returncode:
            print(f"slapd baseline: slapadd failed: {done.stderr[-500:]}")
            return
        used = sum(f.stat().st_blocks * 512 for f in db.iterdir())  # mdb files are sparse: blocks in use
        print(f"slapd (mdb) baseline: {len(people)} people in {used / 2**20:.1f} MiB, {used / len(people):.0f} bytes a person;"
              f" slapadd {seconds:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--slapd", action="store_true")
    parser.add_argument("--pages-per-write", default=f"1,{RECORDS_PER_WRITE // PAGE}",
                        help="pages of 100 per transaction, comma-separated runs (the sync's most is %(default)s)")
    args = parser.parse_args()
    data = records(args.size)
    gc.freeze()  # a sync holds a few pages, not 200k records: collections must not walk what the bench keeps
    db = OUT / f"write-{args.size}.sqlite3"
    for pages in map(int, args.pages_per_write.split(",")):
        load = os.getloadavg()[0]
        wall, cpu, n = write(db, data, pages)
        print(f"cache write, {pages} page(s) of {PAGE} a transaction: {n} records in {wall:.1f} s wall ({n / wall:.0f} records/s),"
              f" {cpu:.1f} s CPU ({n / cpu:.0f} records per CPU-second); load {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    read_rate(db)
    vacuumed_size(db, n)
    if args.slapd:
        slapd_size(data["users"])


if __name__ == "__main__":
    main()
