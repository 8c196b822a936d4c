"""What a hostile body costs the server, over real HTTP against `corpdir server` in a
process of its own, whose resident memory (/proc/PID/status) is the measure: 14 MB of
``{}`` in a field the operation does not take parses into ~360 MB, which nothing may keep
once the request is answered, and which the item limit keeps from being built at all.
The latency of ordinary requests meanwhile is measured by bench/hostile_bench.py, not here.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from corpdir.server.limits import MAX_JSON_ITEMS
from tests.server.conftest import client_for, error_of
from tests.server.served import Served

MIB = 1024 * 1024
EMPTY_OBJECTS = b",".join([b"{}"] * (14 * MIB // 3))  # 14 MB, ~4.9 million objects
# N1 with an unknown field, H2 with a list where its 50-character note goes
N1_UNKNOWN_FIELD = b'{"phoneNums":["0312345678"],"x":[' + EMPTY_OBJECTS + b"]}"
H2_NOTE_LIST = b'{"incomingCallAt":"2025-06-02T09:23:06Z","note":[' + EMPTY_OBJECTS + b"]}"
# under the item limit, so parsed: refused with 400, and nothing of it may stay
N1_UNKNOWN_FIELD_UNDER_LIMIT = b'{"phoneNums":["0312345678"],"x":[' + b",".join([b"{}"] * (MAX_JSON_ITEMS - 10)) + b"]}"
HOSTILE = {"/phone-numbers/identify": N1_UNKNOWN_FIELD, "/me/incoming-calls": H2_NOTE_LIST}
RECEPTION = {"Authorization": "Bearer demo-reception"}
JSON = {**RECEPTION, "Content-Type": "application/json"}


def _hostile(served: Served, path: str) -> None:
    with httpx.Client(base_url=served.url, headers=JSON, timeout=120) as client:
        r = client.post(path, content=HOSTILE[path])
    assert r.status_code == 413, r.text
    assert error_of(r)["details"][0]["code"] == "TOO_MANY_ITEMS"
    assert r.headers["connection"] == "close"  # the rest of the 14 MB is not read


def _parsed_and_refused(client: httpx.Client) -> None:
    r = client.post("/phone-numbers/identify", content=N1_UNKNOWN_FIELD_UNDER_LIMIT, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and error_of(r)["details"][0] == {**error_of(r)["details"][0], "field": "x", "code": "UNKNOWN_FIELD"}


def _ordinary(client: httpx.Client) -> None:
    assert client.get("/users", params={"pageSize": 20}).status_code == 200
    r = client.post("/phone-numbers/identify", json={"phoneNums": ["0312345678"]})
    assert r.status_code == 200 and r.json()["items"][0]["phoneNum"] == "0312345678"


@pytest.fixture
def server(serve: Any) -> Served:
    served = serve("--demo", "--size", "50", "--no-rate-limit")
    assert served.get("/users", headers=RECEPTION).status_code == 200
    return served


@pytest.mark.slow
def test_hostile_bodies_leave_the_servers_memory_where_it_was(server: Served):
    with httpx.Client(base_url=server.url, headers=RECEPTION, timeout=120) as client:
        for path in HOSTILE:  # warm-up: the allocator's first large blocks
            _hostile(server, path)
            _parsed_and_refused(client)
            _ordinary(client)
        start = server.rss_mb()
        for i in range(50):
            _hostile(server, list(HOSTILE)[i % 2])
            _parsed_and_refused(client)
            _ordinary(client)
        after_sequential = server.rss_mb()
        with ThreadPoolExecutor(10) as pool:
            sent = [pool.submit(_hostile, server, list(HOSTILE)[i % 2]) for i in range(10)]
            while not all(f.done() for f in sent):
                _ordinary(client)
            for f in sent:
                f.result()
        _ordinary(client)
    assert after_sequential - start < 50, (start, after_sequential)
    assert server.rss_mb() - start < 50, (start, server.rss_mb())


def test_variant_a_refuses_a_body_over_the_limit_without_keeping_it(serve: Any):
    served = serve("--variant", "A", "--demo", "--size", "20", "--no-rate-limit")
    admin = {"Authorization": "Bearer demo-admin", "Content-Type": "application/json"}
    assert served.get("/users", headers=admin).status_code == 200
    start = served.rss_mb()
    body = b'{"loginId":"big","fullname":"Big","comment":"' + b"x" * (50 * MIB) + b'"}'
    with httpx.Client(base_url=served.url, headers=admin, timeout=120) as client:
        for _ in range(3):
            r = client.post("/users", content=body)
            # variant A has no 413: the same limit, answered 400
            assert r.status_code == 400, r.text
            assert error_of(r)["details"] == [{"field": "body", "code": "TOO_LONG", "description": f"at most {16 * MIB} bytes"}]
    assert served.rss_mb() - start < 50


async def test_the_largest_valid_bodies_are_under_the_item_limit(api):
    """U11's 10,000 destinations and L1's 10,000 locations, each spotId 256 commas: the
    punctuation inside strings is not counted."""
    destinations = [{"loginId": f"user{i}", "destinationId": i, "destinationName": "," * 256} for i in range(10_000)]
    r = await api.patch("/destinations", json={"destinations": destinations})
    assert r.status_code == 200, r.text
    locations = [{"bleId": f"ble{i}", "spotId": "," * 256} for i in range(10_000)]
    r = await api.post("/locations/spots", json={"locations": locations})
    assert r.status_code == 200, r.text


async def test_one_item_over_the_limit_is_refused_before_parsing(api, make_app):
    numbers = b'{"phoneNums":["1"],"x":[' + b",".join([b"1"] * MAX_JSON_ITEMS) + b"]}"
    r = await api.post("/phone-numbers/identify", content=numbers, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and error_of(r)["details"][0]["code"] == "TOO_MANY_ITEMS"
    strings = b'{"phoneNums":["1"],"x":[' + b",".join([b'"a"'] * MAX_JSON_ITEMS) + b"]}"
    r = await api.post("/phone-numbers/identify", content=strings, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and error_of(r)["details"][0]["code"] == "TOO_MANY_ITEMS"
    async with client_for(make_app(variant="A")) as variant_a:
        r = await variant_a.post("/users", content=b'{"loginId":"x","fullname":"x","comment":[' + b",".join([b"{}"] * MAX_JSON_ITEMS) + b"]}",
                                 headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and error_of(r)["details"][0]["code"] == "TOO_MANY_ITEMS"
