"""A number the cache does not know: asked of the service only within the deadline."""

from __future__ import annotations

import re
import time

import pytest

from corpdir.phone import digits
from corpdir.server.settings import RateLimitSettings

DEADLINE_MS = 200


def _lookup_ms(answer) -> float:
    """How long the gateway itself took to answer (its Server-Timing header)."""
    return float(re.fullmatch(r"lookup;dur=([\d.]+)", answer.headers["server-timing"]).group(1))


def test_slow_service_means_unknown_in_time_and_the_late_name_serves_the_next_call(make_gateway):
    gateway = make_gateway(deadline_ms=DEADLINE_MS)
    # someone the service knows and the gateway's cache does not (added after its sync)
    gateway.call(gateway.admin.people.create({"loginId": "late.caller", "fullname": "遅延 太郎", "phoneNum": "03-5555-0101"}))
    gateway.upstream.delay = 1.0
    answer = gateway.get(f"{gateway.base}/cid?number=0355550101")
    assert answer.status_code == 404 and answer.content == b""  # "unknown": the phone rings without a name
    assert answer.headers["x-corpdir-answer"] == "late"
    assert _lookup_ms(answer) <= DEADLINE_MS + 50

    # the service's answer arrives later and is kept: the next call from that number gets the name
    for _ in range(600):
        again = gateway.get(f"{gateway.base}/cid?number=+81355550101")
        if again.headers["x-corpdir-answer"] != "late":
            break
        time.sleep(0.01)
    assert again.status_code == 200 and again.text == "遅延 太郎"
    assert again.headers["x-corpdir-answer"] in ("service", "cache")  # a request waiting when it arrived, or after
    assert _lookup_ms(again) < DEADLINE_MS
    # the person N1 named was fetched (U3) into the cache: from now on the cache answers
    cached = gateway.get(f"{gateway.base}/cid?number=0355550101")
    assert cached.text == "遅延 太郎" and cached.headers["x-corpdir-answer"] == "cache"


def test_fast_service_answers_an_uncached_number_within_the_deadline(make_gateway):
    gateway = make_gateway(deadline_ms=DEADLINE_MS)
    gateway.call(gateway.admin.people.create({"loginId": "new.caller", "fullname": "新規 花子", "companyMobileNum": "080-5555-0102"}))
    answer = gateway.get(f"{gateway.base}/cid.json?number=08055550102")
    assert answer.json()["found"] is True and answer.json()["name"] == "新規 花子"
    assert answer.headers["x-corpdir-answer"] == "service"
    nobody = gateway.get(f"{gateway.base}/cid?number=0355550199")
    assert nobody.status_code == 404 and nobody.headers["x-corpdir-answer"] == "unknown"
    assert _lookup_ms(nobody) <= DEADLINE_MS + 50


async def _bucket(gateway):
    return gateway.service.rate_limit


@pytest.mark.parametrize("share", [0.25, 0.0])
def test_a_sync_in_progress_leaves_the_fallback_its_share_of_the_rate_budget(make_gateway, share):
    """The reference server's rate limiter on (60 tokens, 10/s; N1 costs 10) and the
    gateway syncing without pause, so the sync is throttled by the key's bucket: a number
    only the service knows (a person added while the sync runs) is still answered within
    the deadline, from the quarter of the bucket the sync leaves (with no share kept, the
    same lookup waits behind the sync and answers "late"). Neither earns a 429."""
    gateway = make_gateway(n1_share=share, sync_every=0.001, rate_limit=RateLimitSettings())
    for _ in range(3000):
        bucket = gateway.call(_bucket(gateway))
        if bucket is not None and bucket.throttled > 0 and bucket.waiting > 0:
            break  # the sync waits for tokens
        time.sleep(0.01)
    assert bucket.waiting > 0
    for n in range(5):
        name, number = f"多忙 {n}郎", f"03-5555-02{n:02d}"
        gateway.call(gateway.admin.people.create({"loginId": f"busy.caller{n}", "fullname": name, "phoneNum": number}))
        answer = gateway.get(f"{gateway.base}/cid?number={digits(number)}")
        if answer.headers["x-corpdir-answer"] != "cache":
            break  # else a page of the sync brought the new person first: another one
    if share:
        assert answer.status_code == 200 and answer.text == name
        assert answer.headers["x-corpdir-answer"] == "service"
    else:
        assert answer.status_code == 404 and answer.headers["x-corpdir-answer"] == "late"
    assert _lookup_ms(answer) <= 300 + 50
    assert gateway.call(_bucket(gateway)).rate_limited == 0
