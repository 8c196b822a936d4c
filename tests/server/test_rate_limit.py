"""The rate limiter over real HTTP: a key that is not one gets no
bucket of its own, so bad keys are throttled by the address that sends them, and the
buckets stay bounded however many callers come."""

from __future__ import annotations

import secrets

import httpx

from corpdir.server.ratelimit import RateLimiter
from corpdir.server.settings import RateLimitSettings
from tests.server.conftest import ADMIN_KEY, FakeClock
from tests.server.served import serving


def test_random_bad_keys_are_throttled_by_their_address(make_app):
    app = make_app(rate_limit=RateLimitSettings(burst=10, rate=1))  # the clock stands still
    with serving(app) as url, httpx.Client(base_url=url) as client:
        answers = [client.get("/users", headers={"Authorization": f"Bearer {secrets.token_hex(16)}"}) for _ in range(15)]
        assert [r.status_code for r in answers] == [401] * 10 + [429] * 5
        assert answers[-1].headers["retry-after"] == "1" and answers[-1].json()["error"]["status"] == "RESOURCE_EXHAUSTED"
        # no key at all pays from the same address's bucket
        assert client.get("/users").status_code == 429
        # a real key has its own bucket
        assert client.get("/users", headers={"Authorization": f"Bearer {ADMIN_KEY}"}).status_code == 200


def test_long_bad_keys_make_no_buckets(make_app):
    app = make_app(rate_limit=RateLimitSettings(burst=10**6, rate=1))
    with serving(app) as url, httpx.Client(base_url=url) as client:
        for _ in range(500):
            r = client.get("/users", headers={"Authorization": f"Bearer {secrets.token_hex(2048)}"})  # 4 KB keys
            assert r.status_code == 401
        assert client.get("/users", headers={"Authorization": f"Bearer {ADMIN_KEY}"}).status_code == 200
    assert len(app.state.pipeline.limiter) == 2  # this address's and the admin key's


def test_buckets_are_bounded_and_the_oldest_go_first():
    clock = FakeClock()
    limiter = RateLimiter(RateLimitSettings(burst=2, rate=1), clock, max_buckets=100)
    assert limiter.charge("addr:busy", 2).allowed
    for i in range(20_000):
        limiter.charge(f"addr:10.0.{i // 256}.{i % 256}", 1)
        if i % 50 == 0:
            assert not limiter.charge("addr:busy", 1).allowed  # kept: charged recently
    assert len(limiter) == 100
    clock.advance(0.5)
    assert not limiter.charge("addr:busy", 1).allowed  # still its own, half refilled
