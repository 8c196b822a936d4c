"""Listing everything: page limits per list, and X1 past its 10,000-record window."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from corpdir.client import ListingIncomplete
from corpdir.client.pagination import page_limits

from .conftest import KEY
from .server import make_server, seed_contacts, seed_users


def test_page_limits_come_from_the_spec():
    assert page_limits("U1") == (None, 100)
    assert page_limits("X1") == (19, 500)
    assert page_limits("H1") == (None, 20) and page_limits("H4") == (None, 20)
    assert page_limits("F1") == (None, 100) and page_limits("P1") == (None, 100) and page_limits("D1") == (None, 100)


async def test_iter_users_uses_largest_page_and_sees_everyone(server, make_client):
    client = make_client(httpx.ASGITransport(app=server))
    ids = [u.userId async for u in client.iter_users()]
    assert sorted(ids) == list(range(1, 252)) and len(set(ids)) == 251
    sizes = {parse_qs(urlsplit(s.path).query)["pageSize"][0] for s in server.seen}
    assert sizes == {"100"} and server.count("GET") == 3


async def test_iter_pages_by_name_and_query_model(server, make_client):
    from corpdir.spec.user import UserQuery

    client = make_client(httpx.ASGITransport(app=server))
    pages = [p async for p in client.iter_pages("list_users", UserQuery(pageSize=50, select=["userId"]))]
    assert [len(p.items) for p in pages] == [50, 50, 50, 50, 50, 1]
    assert not pages[-1].hasMore


async def test_x1_lists_25000_contacts_through_update_time_windows(clock, make_client):
    recorder, storage = make_server(KEY, clock, burst=1000, rate=1000)
    seed_contacts(storage, 25_000, same_time=7)
    client = make_client(httpx.ASGITransport(app=recorder))
    ids = [c.contactId async for c in client.iter_contacts()]
    assert len(ids) == 25_000  # no gaps...
    assert len(set(ids)) == 25_000  # ...and no duplicates
    pages = [parse_qs(urlsplit(s.path).query) for s in recorder.seen]
    assert max(int(q["page"][0]) for q in pages) == 19  # never asked past the window
    assert all(q["pageSize"] == ["500"] and q["orderBy"] == ["updatedAt"] for q in pages)
    assert sum(1 for q in pages if "updatedFrom" in q) > 0
    assert recorder.statuses().count(200) == len(recorder.seen)


async def test_x1_window_needs_progress(clock, make_client):
    """10,001 contacts with one update time cannot be listed completely: say so."""
    recorder, storage = make_server(KEY, clock, burst=1000, rate=1000)
    seed_contacts(storage, 10_001, same_time=20_000)
    client = make_client(httpx.ASGITransport(app=recorder))
    with pytest.raises(ListingIncomplete):
        async for _ in client.iter_contacts():
            pass


async def test_x1_by_name_beyond_10000_fails_loudly(clock, make_client):
    recorder, storage = make_server(KEY, clock, burst=1000, rate=1000)
    seed_contacts(storage, 10_050)
    client = make_client(httpx.ASGITransport(app=recorder))
    seen = 0
    with pytest.raises(ListingIncomplete, match="narrow the search"):
        async for _ in client.iter_contacts(orderBy="fullname"):
            seen += 1
    assert seen == 10_000


async def test_calls_pages_are_20(clock, make_client):
    recorder, storage = make_server(KEY, clock)
    client = make_client(httpx.ASGITransport(app=recorder))
    for minute in range(45):
        await client.create_incoming_call(answered=True, calledAt=f"2024-05-01T09:{minute:02d}:00Z", fromNum="0312345678")
    calls = [c async for c in client.iter_incoming_calls()]
    assert len(calls) == 45
    assert [parse_qs(urlsplit(s.path).query)["pageSize"] for s in recorder.seen if s.method == "GET"] == [["20"]] * 3


async def test_every_list_has_an_iterator_that_walks_all_its_pages(clock, make_client):
    from corpdir.client import DirectoryClient
    from corpdir.spec import OPERATIONS

    lists = {op.code: op.name for op in OPERATIONS.values() if op.is_list}
    assert lists == {"U1": "list_users", "D1": "list_divisions", "X1": "list_contacts", "F1": "list_folders",
                     "P1": "list_personal_folders", "H1": "list_incoming_calls", "H4": "list_outgoing_calls"}
    recorder, storage = make_server(KEY, clock, burst=10_000, rate=1000)
    seed_users(storage, 4)
    client = make_client(httpx.ASGITransport(app=recorder))
    for i in range(5):
        await client.create_division(divisionCode=f"D{i}", divisionName=f"Division {i}")
        await client.create_personal_folder(folderName=f"Folder {i}")
        await client.create_contact(folderId={"directory": "SHARED", "folderNum": 1}, fullname=f"Contact {i}")
        await client.create_incoming_call(answered=True, calledAt=f"2024-05-01T09:0{i}:00Z", fromNum="1")
        await client.create_outgoing_call(toNum="2", answered=False, callingAt=f"2024-05-01T10:0{i}:00Z")
    iterators = {"U1": "iter_users", "D1": "iter_divisions", "X1": "iter_contacts", "F1": "iter_folders",
                 "P1": "iter_personal_folders", "H1": "iter_incoming_calls", "H4": "iter_outgoing_calls"}
    for code, name in iterators.items():
        assert f"({code})" in getattr(DirectoryClient, name).__doc__
        before = len(recorder.seen)
        everything = [x async for x in getattr(client, name)(pageSize=2)]
        pages = len(recorder.seen) - before
        one_page = (await getattr(client, lists[code])(pageSize=20)).items
        assert everything == one_page and len(everything) >= 5, code
        assert pages >= (len(everything) + 1) // 2, code  # it really walked the pages, two at a time
