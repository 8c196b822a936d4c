"""Reference-server figures on a large tenant, in-process (httpx ASGI transport).

    python bench/server_bench.py [--users 100000] [--contacts 100000] [--runs 50]

The cases a directory asks most: U1 page of 100 with a freeWords filter (a 3+ character word, and a
2-character one, both answered by the index), X1 page of 500 with a companyName filter,
N1 with 5 numbers; a few more around them (a 1-character word, a common word, a short
companyName). Each prints median and p95 (ms) of the whole request (wall, and the CPU
time of the process, which on a shared machine is closer to "on one core"), then of its query
alone beside a baseline query run in the same process: the plain substring scan that
the index replaces (``instr`` over the search text, as schema 1 did for short words; a
``LIKE`` on the company column for X1), with the ratio of the medians. X1 also prints
the answer's making (the stored records, column fields included, read as UTF-8 and
joined) beside schema 3's (each record merged with its column fields by SQLite when read)
and the record-by-record path (parse each stored JSON, present it, encode the page); the
ratios are to schema 3's. Also prints the tenant's load time (wall and CPU).
Not a test: no limits are asserted. The machine is shared: look at ``uptime`` first.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import time
from collections import Counter
from typing import Any, Callable

import httpx

sys.path.insert(0, os.path.dirname(__file__))
from _stats import report  # noqa: E402

from corpdir.server.app import create_app  # noqa: E402
from corpdir.server.present import contacts_json, present_contact  # noqa: E402
from corpdir.server.search import USERS  # noqa: E402
from corpdir.server.settings import RateLimitSettings, ServerSettings  # noqa: E402
from corpdir.server.storage import Storage  # noqa: E402
from corpdir.spec.operations import validate_query  # noqa: E402
from corpdir.spec.variants import get_variant  # noqa: E402

URL = "http://bench"


CPU: list[float] = []  # process CPU seconds of the requests last timed (all threads: loop and worker)


async def request_times(client: httpx.AsyncClient, runs: int, method: str, url: str, **kw: Any) -> tuple[list[float], httpx.Response]:
    samples, response = [], None
    CPU.clear()
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        response = await client.request(method, url, **kw)
        samples.append(time.perf_counter() - start)
        CPU.append(time.process_time() - cpu)
        assert response.status_code == 200, response.text[:300]
    assert response is not None
    return samples, response


def request_report(label: str, samples: list[float]) -> None:
    report(label, samples)
    report("  the same requests' CPU time (one core's share)", CPU)


def times(runs: int, fn: Callable[[], Any]) -> list[float]:
    for _ in range(3):
        fn()
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def scan_clause(index: Any, column: str | None, id_column: str) -> str:
    """The baseline: every record's text scanned for the word (instr, no index)."""
    cols = [column] if column else list(index.columns)
    test = " OR ".join(f"instr({c}, :w) > 0" for c in cols)
    return f"{id_column} IN (SELECT id FROM {index.text} WHERE {test})"


def users_scan(storage: Storage, word: str) -> Callable[[], Any]:
    sql = f"SELECT id FROM users WHERE {scan_clause(USERS, None, 'users.id')} ORDER BY fullname, id LIMIT 101"
    return lambda: storage.db.conn.execute(sql, {"w": word.lower()}).fetchall()


def contacts_like(storage: Storage, word: str, viewer: int) -> Callable[[], Any]:
    sql = ("SELECT id FROM contacts WHERE (directory = 'SHARED' OR owner_id = :v) AND company_name LIKE :p"
           " ORDER BY updated_at, id LIMIT 501")
    return lambda: storage.db.conn.execute(sql, {"v": viewer, "p": f"%{word}%"}).fetchall()


def merged_when_read(storage: Storage, ids: list[int]) -> bytes:
    """The baseline of schema 3: each record merged with its column fields by SQLite when
    read (``json_patch``), registeredUser and contactDetailsUrl spliced into the str, encoded."""
    marks = ",".join("?" * len(ids))
    cur = storage.db.conn.cursor()
    cur.row_factory = None
    rows = {r[0]: r for r in cur.execute(
        "SELECT id, registered_user_id, json_patch(data, json_object('contactId', id, 'folderId', json_object('directory',"
        " directory, 'folderNum', folder_num), 'registeredAt', registered_at, 'updatedAt', updated_at, 'ocrStatus',"
        f" ocr_status, 'ocrType', ocr_type, 'ocrResult', ocr_result)) FROM contacts WHERE id IN ({marks})", ids)}
    registrars = storage._registrars(storage.db.conn, {r[1] for r in rows.values() if r[1]})
    encoded = {uid: ',"registeredUser":' + json.dumps(r, ensure_ascii=False, separators=(",", ":")) for uid, r in registrars.items()}
    url = ',"contactDetailsUrl":"' + URL + "/contacts/"
    return ",".join(rows[i][2][:-1] + encoded.get(rows[i][1], "") + url + str(i) + '"}' for i in ids if i in rows).encode()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--contacts", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from corpdir.server.demo import generate_tenant

    t0 = time.perf_counter()
    tenant = generate_tenant(size=args.users, seed=args.seed, contacts=args.contacts)
    t1, c1 = time.perf_counter(), time.process_time()
    settings = ServerSettings(rate_limit=RateLimitSettings(enabled=False))
    storage = Storage(settings.database, clock=settings.clock, region=settings.region)  # what create_app opens
    storage.load_tenant(tenant)
    t2, c2 = time.perf_counter(), time.process_time()
    app = create_app(settings, storage=storage)
    print(f"tenant: {len(tenant.users)} users, {len(tenant.contacts)} contacts; generated in {t1 - t0:.1f} s, "
          f"loaded in {t2 - t1:.1f} s wall, {c2 - c1:.1f} s CPU", flush=True)
    variant = get_variant("C")
    viewer = storage.user_for_key("demo-admin")
    assert viewer is not None

    surname3 = Counter(u["fullnameKana"].split(" ")[0] for u in tenant.users if len(u.get("fullnameKana", "").split(" ")[0]) >= 3).most_common(20)[-1][0]
    surname2 = Counter(u["fullname"].split(" ")[0] for u in tenant.users if len(u["fullname"].split(" ")[0]) == 2).most_common(20)[-1][0]
    common1 = surname2[0]
    company = Counter(c["companyName"] for c in tenant.contacts if c.get("companyName")).most_common(1)[0][0]
    company_word = company.replace("株式会社", "")[:4] or company
    numbers = [u["phoneNum"] for u in tenant.users if u.get("phoneNum")][:3] + \
              [c["mobileNum"] for c in tenant.contacts if c.get("mobileNum")][:1] + ["0120-000-000"]

    # a server keeps the database, not the generated tenant: millions of live objects would
    # make every garbage collection during the requests slower than in a real server
    del tenant
    gc.collect()

    users_cases = [(surname3, f"U1 pageSize=100 freeWords={surname3!r}"), (surname2, f"U1 pageSize=100 freeWords={surname2!r}"),
                   (common1, f"U1 pageSize=100 freeWords={common1!r}"), ("ya", "U1 pageSize=100 freeWords='ya'")]
    contact_cases = [(company_word, f"X1 pageSize=500 companyName={company_word!r}"),
                     (company_word[:2], f"X1 pageSize=500 companyName={company_word[:2]!r}")]

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=URL,
                                 headers={"Authorization": "Bearer demo-admin"}) as client:
        for word, label in users_cases:
            params = {"pageSize": 100, "freeWords": [word]}
            samples, response = await request_times(client, 3, "GET", "/users", params=params)
            samples, response = await request_times(client, args.runs, "GET", "/users", params=params)
            request_report(f"{label} ({len(response.json()['items'])} items)", samples)
            q = validate_query("U1", params, variant=variant)
            base = times(args.runs, users_scan(storage, word))
            report("  query: index", times(args.runs, lambda: storage.list_user_ids(q)), base)
            report("  query: baseline instr scan", base)
        for word, label in contact_cases:
            params = {"pageSize": 500, "companyName": word}
            await request_times(client, 3, "GET", "/contacts", params=params)
            samples, response = await request_times(client, args.runs, "GET", "/contacts", params=params)
            request_report(f"{label} ({len(response.json()['items'])} items)", samples)
            q = validate_query("X1", params, variant=variant)
            base = times(args.runs, contacts_like(storage, word, viewer))
            report("  query: index", times(args.runs, lambda: storage.list_contact_ids(q, viewer)), base)
            report("  query: baseline LIKE", base)
            ids, _ = storage.list_contact_ids(q, viewer)

            def joined() -> bytes:
                return contacts_json(storage.get_contact_texts(ids), public_url=URL)

            def per_record() -> bytes:
                items = [present_contact(c, public_url=URL) for c in storage.get_contacts(ids)]
                return json.dumps(items, ensure_ascii=False, separators=(",", ":")).encode()

            assert joined() == merged_when_read(storage, ids)
            base = times(args.runs, lambda: merged_when_read(storage, ids))
            report("  records to JSON: joined", times(args.runs, joined), base)
            report("  records to JSON: baseline schema 3 merge", base)
            report("  records to JSON: baseline parse + encode", times(args.runs, per_record), base)
        samples, response = await request_times(client, 3, "POST", "/phone-numbers/identify", json={"phoneNums": numbers})
        samples, response = await request_times(client, args.runs, "POST", "/phone-numbers/identify", json={"phoneNums": numbers})
        request_report(f"N1 5 numbers ({len(response.json()['items'])} items)", samples)


if __name__ == "__main__":
    asyncio.run(main())
