"""Full listing of 20,000 users (pageSize 100) against the reference server on 127.0.0.1.

Prints figures, asserts nothing. The server runs under uvicorn in a subprocess with its
default token bucket (burst 60, 10 tokens/s), so 200 page requests cannot finish faster
than the rate-limit floor (requests - burst) / replenish rate = 14 s. The figure of merit
is wall time / floor (goal <= 1.10), plus the count of 429 answers (goal 0).

    python bench/client_listing.py [--users 20000] [--page-size 100]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys
import time
import types

KEY = "bench-key"


def serve(port: int, users: int) -> None:
    import uvicorn

    from corpdir.server.app import create_app
    from corpdir.server.settings import ServerSettings

    app = create_app(ServerSettings(bootstrap_key=KEY))
    storage = app.state.storage
    tenant = types.SimpleNamespace(divisions=[], users=[
        {"userId": i + 2, "loginId": f"user{i:05d}", "fullname": f"User {i:05d}", "userType": "REGULAR_USER",
         "extensionNum": f"{1000 + i % 9000}", "email1": f"user{i}@example.com"}
        for i in range(users - 1)
    ])
    with storage.db.write() as conn:
        storage._load_users(conn, tenant)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


async def listing(port: int, page_size: int) -> tuple[int, float, int, object]:
    import httpx

    from corpdir.client import DirectoryClient

    base = f"http://127.0.0.1:{port}/v1"
    for _ in range(200):  # wait for the server to accept connections
        try:
            httpx.get(base + "/users", timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    await asyncio.sleep(7)  # let the bucket refill to its burst after the readiness probe
    statuses: list[int] = []

    async def on_response(response: httpx.Response) -> None:
        statuses.append(response.status_code)

    http = httpx.AsyncClient(event_hooks={"response": [on_response]}, timeout=30)
    async with DirectoryClient(base_url=base, api_key=KEY, http_client=http) as client:
        t0 = time.perf_counter()
        count = 0
        async for _ in client.iter_users(pageSize=page_size):
            count += 1
        wall = time.perf_counter() - t0
        snap = client.rate_limit
    await http.aclose()
    return count, wall, statuses.count(429), (len(statuses), snap)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=20_000)
    ap.add_argument("--page-size", type=int, default=100)
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve, args.users)
        return
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--users", str(args.users)])
    try:
        count, wall, n429, (requests, snap) = asyncio.run(listing(port, args.page_size))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    burst, rate = snap.capacity or 60, snap.rate or 10
    floor = max(requests - burst, 0) / rate
    print(f"users listed      {count}")
    print(f"requests          {requests} (429 answers: {n429})")
    print(f"wall time         {wall:.2f} s")
    print(f"rate-limit floor  {floor:.2f} s  ((requests - burst {burst:g}) / {rate:g} per s)")
    print(f"wall / floor      {wall / floor:.3f}  (goal <= 1.10)" if floor else "wall / floor      n/a (within burst)")


if __name__ == "__main__":
    main()
