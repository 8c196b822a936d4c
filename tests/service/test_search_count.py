"""The count a people search shows is the number of people who match, on a 10k tenant
(a common surname is hundreds of people, more than one screen of ranked hits)."""

from __future__ import annotations

import jaconv
import pytest

from corpdir.cache.store import CacheStore
from corpdir.tui.screens.directory_browse import Browse
from service_fixtures import demo_tenant, make_server, make_service


@pytest.fixture(scope="module")
def tenant():
    return demo_tenant(10_000)


@pytest.fixture
async def service(tenant):
    store = CacheStore(":memory:")
    store.put_users(tenant.users)
    service = make_service(make_server(tenant), store=store)
    yield service
    await service.close()


@pytest.mark.parametrize("typed", ["たなか", "さとう", "すずき"])
async def test_the_count_shown_is_every_person_whose_reading_holds_the_name(service, tenant, typed):
    reading = jaconv.hira2kata(typed)
    matching = {u["userId"] for u in tenant.users if reading in u["fullnameKana"].replace(" ", "")}
    assert len(matching) > 300  # more than a 200-hit ranking would list
    answers = [a async for a in service.search.people(typed)]
    final = answers[-1]
    assert final.final and final.more is None
    assert set(final.ids) == matching
    browse = Browse(text=typed)
    assert f"{len(matching)} people" in browse.caption(len(final.ids), more=final.more is not None)
