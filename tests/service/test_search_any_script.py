"""A people search as the Directory runs it (the cache, then the service, merged) gives the
same people for the same name in hiragana, katakana and half-width katakana: the service
folds no kana, so the cache's answer must already hold everyone it would add."""

from __future__ import annotations

import jaconv
import pytest

from corpdir.cache.store import CacheStore
from corpdir.service import live_search
from service_fixtures import demo_tenant, make_server, make_service


@pytest.fixture
async def service(monkeypatch):
    monkeypatch.setattr(live_search, "TYPING_PAUSE", 0)  # the pause is for typists; no one types here
    tenant = demo_tenant(500)
    store = CacheStore(":memory:")
    store.put_users(tenant.users)
    service = make_service(make_server(tenant), store=store)
    yield service, tenant
    await service.close()


async def test_a_family_name_and_two_letters_of_the_given_name_find_the_same_people_in_every_script(service):
    service, tenant = service
    people = [u for u in tenant.users if u["userType"] != "FACILITY"][:60]
    differ = []
    for user in people:
        family, given = user["fullnameKana"].split()
        part = given[1:3]  # two letters inside the given name: 'ヒロ' of ヤスヒロ
        typed = [f"{jaconv.kata2hira(family)} {jaconv.kata2hira(part)}", f"{family} {part}", jaconv.z2h(f"{family} {part}")]
        found = [set([a async for a in service.search.people(t)][-1].ids) for t in typed]
        if user["userId"] not in found[1] or any(f != found[1] for f in found):
            differ.append((typed, [len(f) for f in found]))
    assert differ == []
