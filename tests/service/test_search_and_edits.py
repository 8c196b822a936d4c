"""The façade's search policy (cache first, a pause, the service, merged) and its edits,
against the reference server in-process and a real cache."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from corpdir.cache.store import CacheStore
from corpdir.client import DirectoryClient
from corpdir.config import ServiceConfig
from corpdir.service.directory import DirectoryService
from corpdir.service.errors import Invalid
from corpdir.spec.constraints import max_items
from corpdir.spec.user import UserQuery
from service_fixtures import BASE_URL, make_server
from corpdir.service.backend import backend_of


class Recording(httpx.AsyncBaseTransport):
    """The real server behind a transport that notes each request (and can be cut)."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.requests: list[httpx.Request] = []
        self.down = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        self.requests.append(request)
        return await self.inner.handle_async_request(request)


@pytest.fixture
async def stack():
    transport = Recording(make_server())
    services: list[DirectoryService] = []

    async def open_service(variant: str = "C") -> DirectoryService:
        settings = ServiceConfig(base_url=BASE_URL, api_key="demo-admin", variant=variant, max_retries=0)
        service = DirectoryService(DirectoryClient(settings, transport=transport), CacheStore(":memory:"), settings)
        await service.sync.run()
        transport.requests.clear()
        services.append(service)
        return service

    yield transport, open_service
    for service in services:
        await service.close()


async def answers(iterator) -> list:
    return [a async for a in iterator]


async def test_people_search_answers_from_the_cache_then_with_the_service(stack):
    transport, open_service = stack
    service = await open_service()
    someone = (await service.people.window(None, limit=1))[0]
    surname = someone.fullname.split()[0]
    local, final = await answers(service.search.people(surname))
    assert not local.final and someone.userId in local.ids
    assert final.final and final.error is None
    assert final.ids[:len(local.ids)] == local.ids  # the cache's ranking first, then what only the service found
    sent = [r for r in transport.requests if r.url.path.endswith("/users")]
    assert len(sent) == 1 and parse_qs(urlsplit(str(sent[0].url)).query)["freeWords"] == [surname]


async def test_free_words_are_cut_to_the_specs_number(stack):
    transport, open_service = stack
    service = await open_service()
    words = [f"w{i}" for i in range(max_items(UserQuery, "freeWords") + 3)]
    await answers(service.search.people(" ".join(words)))
    sent = parse_qs(urlsplit(str(transport.requests[-1].url)).query)["freeWords"]
    assert sent == words[:10]


async def test_a_filter_lets_the_service_decide_who_qualifies(stack):
    transport, open_service = stack
    service = await open_service()
    everyone = await service.people.window(None, limit=1000)
    facility = [u.userId for u in everyone if u.userType == "FACILITY"]
    assert facility, "the demo tenant has facilities"
    only = await answers(service.search.people("", {"userType": "FACILITY"}))
    assert len(only) == 1 and only[0].final and sorted(only[0].ids) == sorted(facility)


async def test_a_failed_service_leaves_the_caches_answer_and_says_why(stack):
    transport, open_service = stack
    service = await open_service()
    someone = (await service.people.window(None, limit=1))[0]
    transport.down = True
    local, final = await answers(service.search.people(someone.fullname.split()[0]))
    assert final.final and final.error is not None and final.ids == local.ids
    (empty,) = await answers(service.search.people("", {"userType": "FACILITY"}))
    assert empty.ids == [] and empty.error is not None


async def test_contacts_without_x1_answer_from_the_cache_and_say_filters_were_not_applied(stack):
    transport, open_service = stack
    full = await open_service()
    contact = (await full.contacts.window(limit=1))[0]
    service = await open_service("A")
    backend_of(service).store = backend_of(full).store  # variant A cannot list contacts: the cache another sync filled
    backend_of(service).cache = backend_of(full).cache
    service.search._searchers.clear()
    (only,) = await answers(service.search.contacts(contact.fullname))
    assert only.final and contact.contactId in only.ids and not only.unfiltered
    (filtered,) = await answers(service.search.contacts(contact.fullname, {"companyName": "x"}))
    assert filtered.unfiltered and contact.contactId in filtered.ids
    assert not [r for r in transport.requests if r.url.path.endswith("/contacts")]


async def test_an_edit_by_changes_is_checked_against_the_edited_users_type(stack):
    """The façade hands the client the original record, so U4's per-type rule (a facility
    has no mobile number) is checked before anything is sent."""
    transport, open_service = stack
    service = await open_service()
    facility = next(u for u in await service.people.window(None, limit=1000)
                    if u.userType == "FACILITY")
    with pytest.raises(Invalid) as refused:
        await service.people.edit(facility, changes={"companyMobileNum": "090-1234-5678"})
    assert refused.value.local and [d.field for d in refused.value.details] == ["companyMobileNum"]
    assert not [r for r in transport.requests if r.method == "PATCH"]
