"""`corpdir lookup` answers the same whichever way it found the answer: from the cache, or
from the service's N1 (`--fresh` asks the service about every number). Real processes,
a cache filled by `corpdir sync` from the reference server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from corpdir.cache.store import CacheStore
from corpdir.paths import Profile
from service_fixtures import LiveServer, demo_tenant, make_server

KEY = "demo-reception"


@pytest.fixture(scope="module")
def server():
    live = LiveServer(make_server())
    yield live
    live.stop()


def corpdir(*args: str, base_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CORPDIR_BASE_URL": base_url, "CORPDIR_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "corpdir.cli", *args], capture_output=True, text=True, env=env, timeout=120)


def n1(server, number: str) -> dict:
    response = httpx.post(f"{server.base_url}/phone-numbers/identify", json={"phoneNums": [number]},
                          headers={"Authorization": f"Bearer {KEY}"})
    response.raise_for_status()
    return response.json()["items"][0]


def one_of_each(server) -> dict[str, str]:
    """A number the service answers as a user's, a contact's, a division's and a company's."""
    tenant = demo_tenant()
    candidates = [u.get("phoneNum") for u in tenant.users[:20]] + [c.get("phoneNum") for c in tenant.contacts[:20]]
    candidates += [d.get("divisionPhoneNum") for d in tenant.divisions[:20]]
    candidates += [c.get("companyDelegatedPhoneNum") for c in tenant.contacts[:40]]
    found: dict[str, str] = {}
    for number in filter(None, candidates):
        item = n1(server, number)
        kind = item.get("phoneNumContactType")
        if kind == "SHARED_NUMBER":
            kind = "SHARED_DIVISION" if not item.get("companyName") or item["displayName"] in (item.get("divisionNames") or []) else "SHARED_COMPANY"
        found.setdefault(kind, number)
    wanted = ("USER", "CONTACT", "SHARED_DIVISION", "SHARED_COMPANY")
    assert set(wanted) <= set(found), found
    return {kind: found[kind] for kind in wanted}


def test_cache_and_service_give_the_same_columns_and_json(server):
    synced = corpdir("sync", "--quiet", base_url=server.base_url)
    assert synced.returncode == 0 and "cache compacted after the first sync" in synced.stdout  # the one-off VACUUM, said
    numbers = one_of_each(server)
    asked = list(numbers.values())

    from_cache = corpdir("lookup", "--json", *asked, base_url=server.base_url)
    cache_lines = corpdir("lookup", *asked, base_url=server.base_url).stdout.splitlines()
    store = CacheStore(Profile(server.base_url, KEY).cache_path())
    store.mark_synced("users", time.time() - 24 * 3600)  # stale, and --fresh: every number goes to N1
    store.close()
    from_service = corpdir("lookup", "--json", "--fresh", *asked, base_url=server.base_url)
    service_lines = corpdir("lookup", "--fresh", *asked, base_url=server.base_url).stdout.splitlines()

    cached = [json.loads(line) for line in from_cache.stdout.splitlines()]
    served = [json.loads(line) for line in from_service.stdout.splitlines()]
    assert [a["source"] for a in cached] == ["cache"] * 4
    assert [a["source"] for a in served] == ["service"] * 4
    for kind, a, b in zip(numbers, cached, served):
        assert a["items"] == b["items"], kind
        assert len(a["items"]) == 1, kind
    assert cache_lines == service_lines
    user = cached[list(numbers).index("USER")]["items"][0]
    assert user["companyName"] is None and all(" › " in d for d in user["divisionPaths"])  # divisions by path
    assert " › ".join(user["divisionNames"]) == user["divisionPath"] == user["divisionPaths"][0]
    division = cached[list(numbers).index("SHARED_DIVISION")]["items"][0]
    assert division["divisionNames"][-1] == division["displayName"]
    assert " › ".join(division["divisionNames"]) == division["divisionPath"]
