"""The client-side token bucket: no 429 under load, waits on the fake clock, observable."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from corpdir.client import BucketSnapshot, DirectoryClient, TokenBucket
from corpdir.client.ratelimit import reserved

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
    odd = [(seen.status, seen.path) for seen in recorder.seen if seen.status != 200]
    assert len(statuses) == 2000 and statuses.count(429) == 0, (len(statuses), odd)
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


async def test_a_request_in_flight_while_the_bucket_fills_keeps_its_token(clock):
    """A request slow to reach the service while its bucket fills up is charged there
    against a full bucket (the refill stopped at the capacity): the client keeps room for
    it, so the burst sent after it does not end in a 429 (seen in CI: 8 tasks, one 429 in
    2,000 pages)."""
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    first = await bucket.acquire("U1")
    bucket.settle(first, HEADERS | {"x-ratelimit-remaining": "20"}, status=200)  # capacity 20, full
    slow = await bucket.acquire("U1")  # on its way, not yet charged by the service
    clock.now += 60  # the service's bucket is full again and stays at 20
    burst = [await bucket.acquire("U1") for _ in range(19)]  # 19 + the slow one: all 20 tokens
    last = asyncio.create_task(bucket.acquire("U1"))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not last.done() and len(burst) == 19  # a 21st against 20 tokens would be a 429
    bucket.settle(slow, HEADERS | {"x-ratelimit-remaining": "19"}, status=200)  # charged there at last
    assert not (await last).probe


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


class _BoundedSleep:
    """The fake clock's sleep, refusing to go on for ever: a client that would wait for
    tokens that never come fails the test instead of hanging it."""

    def __init__(self, clock, limit: int = 1000) -> None:
        self.clock, self.limit, self.calls = clock, limit, 0

    async def __call__(self, seconds: float) -> None:
        self.calls += 1
        if self.calls > self.limit:
            raise AssertionError(f"still waiting after {self.limit} sleeps ({self.clock.slept[-1]} s each)")
        await self.clock.sleep(seconds)


@pytest.mark.parametrize("headers", [
    {**HEADERS, "x-ratelimit-remaining": "nan"},
    {**HEADERS, "x-ratelimit-remaining": "-inf"},
    {**HEADERS, "x-ratelimit-replenish-rate": "0"},
    {**HEADERS, "x-ratelimit-replenish-rate": "nan"},
    {"x-ratelimit-remaining": "0"},  # a proxy kept one header of four
], ids=["remaining-nan", "remaining-inf", "rate-0", "rate-nan", "remaining-only"])
async def test_odd_rate_headers_never_stall_the_client(headers, clock):
    """Headers that give no way to compute a refill: the client keeps sending (one at a
    time), and the service's answers, not a wait that never ends, decide."""
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, headers=headers, json={"userId": 1})

    sleep = _BoundedSleep(clock)
    async with DirectoryClient(base_url="http://127.0.0.1/v1", api_key="k", transport=httpx.MockTransport(answer),
                               clock=clock, sleep=sleep) as client:
        for _ in range(5):
            assert (await client.get_user(1)).userId == 1
        await asyncio.gather(*(client.get_user(1) for _ in range(5)))
    assert len(sent) == 10


async def test_concurrency_cap_holds_for_bulk_and_for_the_whole_client(clock, make_client):
    recorder, storage = make_server(KEY, clock, burst=10_000, rate=1000)
    seed_users(storage, 40)
    now = {"in": 0, "max": 0}

    class Gauge(httpx.AsyncBaseTransport):
        def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
            self.inner = inner

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            now["in"] += 1
            now["max"] = max(now["max"], now["in"])
            try:
                for _ in range(3):
                    await asyncio.sleep(0)  # let every other task that can start a request start it
                return await self.inner.handle_async_request(request)
            finally:
                now["in"] -= 1

    client = make_client(Gauge(httpx.ASGITransport(app=recorder)), concurrency=5)
    users = await client.bulk(client.get_user, range(1, 42), concurrency=3)
    assert [u.userId for u in users] == list(range(1, 42)) and now["max"] == 3
    now["max"] = 0
    users = await client.bulk(client.get_user, range(1, 42))  # the client's own cap
    assert len(users) == 41 and now["max"] == 5
    now["max"] = 0
    await asyncio.gather(*(client.get_user(i) for i in range(1, 42)))  # plain calls pass the same cap
    assert now["max"] == 5


async def test_real_429s_from_a_shared_key_are_waited_out(clock, make_client):
    """Two clients on one key (say the TUI and a sync job): neither bucket knows what the
    other spends, so the reference server does answer 429. Each is waited out
    (Retry-After) and resent: every call succeeds, none is lost or doubled."""
    from corpdir.client import RetryPolicy

    recorder, storage = make_server(KEY, clock, burst=10, rate=5)
    seed_users(storage, 30)
    # no jitter: which of the two waits out a 429 first, and so whether the other still meets
    # one, was left to random.random() (a run without any 429 failed the test now and then)
    a = make_client(httpx.ASGITransport(app=recorder), retry=RetryPolicy(max_retries=10, jitter=0.0))
    b = make_client(httpx.ASGITransport(app=recorder), retry=RetryPolicy(max_retries=10, jitter=0.0))
    users = await asyncio.gather(*(c.get_user(i) for i in range(1, 31) for c in (a, b)))
    assert sorted(u.userId for u in users) == sorted(list(range(1, 31)) * 2)
    statuses = recorder.statuses()
    assert statuses.count(200) == 60 and statuses.count(429) > 0 and set(statuses) == {200, 429}
    assert a.rate_limit.rate_limited + b.rate_limit.rate_limited == statuses.count(429)
    # paced by the shared bucket: (60 - 10 burst) / 5 per second at least, on the fake clock
    assert clock.now - 1_700_000_000.0 >= (60 - 10) / 5


async def _n1_among_throttled_listings(clock, make_client, share: float) -> tuple[float, int, Any]:
    """8 listings (250 pages each) throttled by a 60-token bucket at 10/s; once they wait,
    one N1 (10 tokens) asked inside ``reserved()``. (fake seconds from the ask until the
    N1 was sent, listing pages sent meanwhile, the recorder)."""
    recorder, storage = make_server(KEY, clock, burst=60, rate=10)
    seed_users(storage, 249)
    sent: list[tuple[float, str]] = []

    class Sent(httpx.AsyncBaseTransport):
        """Notes when each request left the client (after its tokens were paid)."""

        def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
            self.inner = inner

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            sent.append((clock.now, request.url.path))
            return await self.inner.handle_async_request(request)

    client = make_client(Sent(httpx.ASGITransport(app=recorder)), concurrency=8)
    client.reserve_rate_share(share)

    async def list_all() -> int:
        return len([u async for u in client.iter_users(pageSize=1)])

    listings = [asyncio.ensure_future(list_all()) for _ in range(8)]
    while len(sent) < 100:  # the burst is long spent: every listing waits for tokens
        await asyncio.sleep(0)
    asked, before = clock.now, len(sent)
    with reserved():
        await client.identify_numbers(["0312345678"])
    at = next(i for i, (_, path) in enumerate(sent) if path.endswith("/identify"))
    assert await asyncio.gather(*listings) == [250] * 8
    return sent[at][0] - asked, at - before, recorder


async def test_a_reserved_request_is_paid_from_the_share_a_throttled_listing_leaves(clock, make_client):
    """The gateway's N1 for a ringing phone while a sync is throttled by the bucket: with a
    quarter of the bucket reserved it is sent at once (the listings leave 15 tokens, N1
    costs 10); the server answers no 429, and the listings finish."""
    waited, pages_first, recorder = await _n1_among_throttled_listings(clock, make_client, 0.25)
    assert waited == 0 and pages_first == 0
    assert recorder.statuses().count(429) == 0


async def test_other_requests_leave_the_reserve_in_the_bucket(clock):
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    bucket.reserve(0.25)
    probe = await bucket.acquire("U1")
    bucket.settle(probe, {**HEADERS, "x-ratelimit-remaining": "20"}, status=200)  # capacity 20: 5 kept
    sent = [await bucket.acquire("U1") for _ in range(15)]
    for i, ticket in enumerate(sent):  # answered (until then the 15 might not be charged there yet)
        bucket.settle(ticket, {**HEADERS, "x-ratelimit-remaining": str(19 - i)}, status=200)
    t0 = clock.now
    await bucket.acquire("U1")  # 5 left = the reserve: waits for one token at 10/s
    assert clock.now - t0 == pytest.approx(0.1, abs=0.005)
    t0 = clock.now
    with reserved():
        for _ in range(5):
            await bucket.acquire("U1")  # the reserve is theirs
    assert clock.now == t0
    with pytest.raises(ValueError):
        bucket.reserve(1.0)
