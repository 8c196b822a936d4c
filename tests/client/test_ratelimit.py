"""The client-side token bucket: no 429 under load, waits on the fake clock, observable."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from corpdir.client import BucketSnapshot, TokenBucket

from .conftest import KEY
from .server import make_server, seed_users

HEADERS = {
    "x-ratelimit-remaining": "0",
    "x-ratelimit-requested-tokens": "1",
    "x-ratelimit-burst-capacity": "20",
    "x-ratelimit-replenish-rate": "10",
}


async def test_load_8_tasks_2000_pages_no_429(clock, make_client):
    """8 concurrent listings, 2,000 pages in all, against the reference server with a
    20-token bucket (10/s) on the shared fake clock: the server answers no 429."""
    recorder, storage = make_server(KEY, clock, burst=20, rate=10)
    seed_users(storage, 249)  # + the admin = 250 users: 250 pages of 1 per listing
    snapshots: list[BucketSnapshot] = []
    client = make_client(httpx.ASGITransport(app=recorder), on_rate_limit=snapshots.append, concurrency=8)

    async def list_all() -> int:
        return len([u async for u in client.iter_users(pageSize=1)])

    counts = await asyncio.gather(*(list_all() for _ in range(8)))
    assert counts == [250] * 8
    statuses = recorder.statuses()
    assert len(statuses) == 2000
    assert statuses.count(429) == 0
    # it ran at the bucket's pace: (2000 - 20 burst) / 10 per second on the fake clock
    assert clock.now - 1_700_000_000.0 >= (2000 - 20) / 10 * 0.99
    assert snapshots and snapshots[-1].known and snapshots[-1].capacity == 20 and snapshots[-1].rate == 10
    assert client.rate_limit.throttled > 0 and client.rate_limit.rate_limited == 0


async def test_429_without_retry_after_waits_for_refill(clock):
    """(requested - remaining) / replenish rate when there is no Retry-After."""
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    assert bucket.refill_wait("N1", {**HEADERS, "x-ratelimit-requested-tokens": "10", "x-ratelimit-remaining": "4"}) == 0.6


async def test_bucket_waits_when_it_cannot_pay(clock):
    bucket = TokenBucket(costs={"U11": 10}, clock=clock, sleep=clock.sleep)
    probe = await bucket.acquire("U1")  # unknown bucket: one probe goes alone
    assert probe.probe
    bucket.settle(probe, {**HEADERS, "x-ratelimit-remaining": "5"}, status=200)
    t0 = clock.now
    ticket = await bucket.acquire("U11")  # needs 10, has 5 at 10/s
    assert clock.now - t0 == pytest.approx(0.5)
    bucket.settle(ticket, {**HEADERS, "x-ratelimit-remaining": "0", "x-ratelimit-requested-tokens": "12"}, status=200)
    assert bucket.cost("U11") == 12  # the service's word replaces the spec's estimate


async def test_settle_counts_other_requests_in_flight(clock):
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    first = await bucket.acquire("U1")
    bucket.settle(first, {**HEADERS, "x-ratelimit-remaining": "19"}, status=200)
    a = await bucket.acquire("U1")
    b = await bucket.acquire("U1")
    c = await bucket.acquire("U1")
    # b's answer: the service says 17 left; a and c may not be counted in it yet
    bucket.settle(b, {**HEADERS, "x-ratelimit-remaining": "17"}, status=200)
    assert bucket.snapshot().tokens == pytest.approx(15)
    # c (sent after b) is newer: its figure replaces the estimate
    bucket.settle(c, {**HEADERS, "x-ratelimit-remaining": "16"}, status=200)
    assert bucket.snapshot().tokens == pytest.approx(15)
    # a's answer was overtaken: its (older, higher) figure may not raise the estimate
    bucket.settle(a, {**HEADERS, "x-ratelimit-remaining": "18"}, status=200)
    assert bucket.snapshot().tokens == pytest.approx(15)
    assert bucket.snapshot().in_flight == 0


async def test_other_callers_wait_for_the_probe(clock):
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    probe = await bucket.acquire("U1")
    second = asyncio.create_task(bucket.acquire("U1"))
    await asyncio.sleep(0)
    assert not second.done() and bucket.snapshot().waiting == 1
    bucket.settle(probe, HEADERS | {"x-ratelimit-remaining": "10"}, status=200)
    ticket = await second
    assert not ticket.probe and bucket.snapshot().tokens == pytest.approx(9)


async def test_service_without_rate_headers_is_unlimited(clock):
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    probe = await bucket.acquire("U1")
    bucket.settle(probe, {"content-type": "application/json"}, status=200)
    tickets = [await bucket.acquire("U1") for _ in range(100)]
    assert len(tickets) == 100 and clock.slept == [] and bucket.snapshot().unlimited


async def test_pause_holds_everyone(clock):
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    first = await bucket.acquire("U1")
    bucket.settle(first, HEADERS | {"x-ratelimit-remaining": "20"}, status=200)
    bucket.pause(3)
    t0 = clock.now
    await bucket.acquire("U1")
    assert clock.now - t0 >= 3
