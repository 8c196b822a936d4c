"""Ordinary requests while hostile bodies arrive.

`corpdir server --demo` in a process of its own on 127.0.0.1; one client sends ordinary
requests (U1 page of 20, N1 of one number, alternately) on a keep-alive connection and
times each. Baseline: the same requests with nothing else going on. Under load: the same
while other clients (processes of their own, so they do not take the timing client's
interpreter) send 14 MB bodies of ``{}`` (N1 with an unknown field, H2 with a list for its
note): 50 one after another, then rounds of 10 at once. Prints median and p95 of each,
and the server's resident memory before and after.

    python bench/hostile_bench.py [--requests 400] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import httpx

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1])]
from _stats import report  # noqa: E402

from tests.server.served import Served  # noqa: E402
from tests.server.test_hostile_bodies import HOSTILE, JSON, RECEPTION  # noqa: E402


def ordinary(client: httpx.Client, n: int) -> list[float]:
    samples = []
    for i in range(n):
        start = time.perf_counter()
        if i % 2:
            r = client.post("/phone-numbers/identify", json={"phoneNums": ["0312345678"]})
        else:
            r = client.get("/users", params={"pageSize": 20})
        samples.append(time.perf_counter() - start)
        assert r.status_code == 200, r.text
    return samples


def hostile(url: str, path: str) -> None:
    with httpx.Client(base_url=url, headers=JSON, timeout=300) as client:
        assert client.post(path, content=HOSTILE[path]).status_code == 413


def _sequence(url: str, n: int) -> None:
    for i in range(n):
        hostile(url, list(HOSTILE)[i % 2])


def while_sent(client: httpx.Client, sent: list[Future]) -> list[float]:
    samples = []
    while not all(f.done() for f in sent):
        samples += ordinary(client, 1)
    for f in sent:
        f.result()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    served = Served("--demo", "--size", "500", "--no-rate-limit")
    try:
        served.get("/users", headers=RECEPTION)
        with httpx.Client(base_url=served.url, headers=RECEPTION, timeout=60) as client:
            ordinary(client, 50)  # warm-up
            for path in HOSTILE:
                hostile(served.url, path)
            rss = served.rss_mb()
            baseline = ordinary(client, args.requests)
            report("ordinary requests, nothing else (baseline)", baseline)
            with ProcessPoolExecutor(10) as pool:
                one = pool.submit(_sequence, served.url, 50)
                report("ordinary requests, 50 bodies one after another", while_sent(client, [one]), baseline)
                samples = []
                for _ in range(args.rounds):
                    samples += while_sent(client, [pool.submit(hostile, served.url, list(HOSTILE)[i % 2]) for i in range(10)])
                report(f"ordinary requests, {args.rounds} rounds of 10 bodies at once", samples, baseline)
            print(f"server RSS after warm-up {rss:.0f} MiB, after {50 + 10 * args.rounds} hostile bodies {served.rss_mb():.0f} MiB")
    finally:
        served.stop()


if __name__ == "__main__":
    main()
