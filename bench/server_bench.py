"""Reference-server figures on a large tenant, in-process (httpx ASGI transport).

    python bench/server_bench.py [--users 100000] [--contacts 100000] [--runs 50]

Prints median and p95 (ms) of: U1 page of 100 with a freeWords filter (a 3+ character word,
answered by the trigram index, and a 2-character word, answered by a scan), X1 page of
500 with a companyName filter, N1 with 5 numbers. Not a test: no limits are asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter

import httpx

from corpdir.server.app import create_app
from corpdir.server.settings import RateLimitSettings, ServerSettings


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"median {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


async def measure(client: httpx.AsyncClient, runs: int, method: str, url: str, **kw) -> tuple[list[float], httpx.Response]:
    samples, response = [], None
    for _ in range(runs):
        start = time.perf_counter()
        response = await client.request(method, url, **kw)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.text[:300]
    return samples, response


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
    t1 = time.perf_counter()
    app = create_app(ServerSettings(demo=tenant, rate_limit=RateLimitSettings(enabled=False)))
    t2 = time.perf_counter()
    print(f"tenant: {len(tenant.users)} users, {len(tenant.contacts)} contacts; generated in {t1 - t0:.1f} s, loaded in {t2 - t1:.1f} s")

    surname3 = Counter(u["fullnameKana"].split(" ")[0] for u in tenant.users if len(u.get("fullnameKana", "").split(" ")[0]) >= 3).most_common(20)[-1][0]
    surname2 = Counter(u["fullname"].split(" ")[0] for u in tenant.users if len(u["fullname"].split(" ")[0]) == 2).most_common(20)[-1][0]
    company = Counter(c["companyName"] for c in tenant.contacts if c.get("companyName")).most_common(1)[0][0]
    company_word = company.replace("株式会社", "")[:4] or company
    numbers = [u["phoneNum"] for u in tenant.users if u.get("phoneNum")][:3] + \
              [c["mobileNum"] for c in tenant.contacts if c.get("mobileNum")][:1] + ["0120-000-000"]

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://bench",
                                 headers={"Authorization": "Bearer demo-admin"}) as client:
        for label, method, url, kw in [
            (f"U1 pageSize=100 freeWords={surname3!r}", "GET", "/users", {"params": {"pageSize": 100, "freeWords": [surname3]}}),
            (f"U1 pageSize=100 freeWords={surname2!r}", "GET", "/users", {"params": {"pageSize": 100, "freeWords": [surname2]}}),
            (f"X1 pageSize=500 companyName={company_word!r}", "GET", "/contacts", {"params": {"pageSize": 500, "companyName": company_word}}),
            ("N1 5 numbers", "POST", "/phone-numbers/identify", {"json": {"phoneNums": numbers}}),
        ]:
            await measure(client, 3, method, url, **kw)  # warm up
            samples, response = await measure(client, args.runs, method, url, **kw)
            count = len(response.json()["items"])
            print(f"{label:55s} {figures(samples)}   ({count} items)")


if __name__ == "__main__":
    asyncio.run(main())
