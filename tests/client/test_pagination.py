"""Listing everything: page limits per list, and X1 past its 10,000-record window."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from corpdir.client import ListingIncomplete
from corpdir.client.pagination import page_limits

from .conftest import KEY
from .server import make_server, seed_contacts


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
