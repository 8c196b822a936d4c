"""The demo tenant's first screen ships ready-made: a fresh install shows named people at
once, and the shipped file is what the generator gives today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from corpdir.cache.demo_seed import SEED_FILE
from corpdir.config import ServiceConfig
from corpdir.service.directory import DirectoryService

BUILDER = Path(__file__).resolve().parents[2] / "bench" / "make_demo_seed.py"


def test_the_shipped_file_is_what_a_sync_of_the_embedded_demo_stores_now():
    # fails after a change to the generator: `python bench/make_demo_seed.py` writes it again
    spec = importlib.util.spec_from_file_location("make_demo_seed", BUILDER)
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    assert builder.build() == SEED_FILE.read_bytes()


async def test_a_fresh_demo_cache_has_named_people_before_any_request():
    service = DirectoryService.open(ServiceConfig())
    try:
        assert service.rate_limit is None and service.online is None  # nothing asked of the (not yet started) embedded service
        first = await service.people.window(None, limit=3)
        assert len(first) == 3 and all(u.fullname and u.fullnameKana for u in first)
        assert first[0].fullnameKana.startswith("ア")  # "by name": the first by reading
        assert await service.people.count(None) == 500
        hits = await service.search.users(first[0].fullname.split()[0])
        assert first[0].userId in hits[0]
        assert await service.sync.age("users") is None  # not marked synced: the start-up sync still runs
    finally:
        await service.close()


async def test_another_demo_tenant_is_not_seeded():
    service = DirectoryService.open(ServiceConfig(demo_seed=2))
    try:
        assert await service.people.count(None) == 0
    finally:
        await service.close()
