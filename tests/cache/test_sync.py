"""Sync against the reference server in-process: complete, resumable, deletion-aware."""

import asyncio
import random

import pytest

from corpdir.cache.store import CacheStore
from corpdir.cache.sync import Syncer
from service_fixtures import FakeClock, make_server, make_service


class Interrupted(Exception):
    pass


def snapshot(store: CacheStore) -> dict:
    return {
        "users": sorted(u.userId for u in store.list_users(limit=10_000)),
        "contacts": sorted(c.contactId for c in store.list_contacts(limit=100_000)),
        "divisions": sorted(r[0] for r in store._rows("SELECT id FROM divisions")),
    }


async def server_truth(service) -> dict:
    return {
        "users": sorted([u.userId async for u in service.client.iter_users()]),
        "contacts": sorted([c.contactId async for c in service.client.iter_contacts()]),
        "divisions": sorted([d.divisionId async for d in service.client.iter_divisions()]),
    }


@pytest.fixture
async def admin():
    svc = make_service(api_key="demo-admin")
    yield svc
    await svc.close()


async def test_full_sync_mirrors_the_service(admin):
    summary = await admin.sync()
    assert snapshot(admin.store) == await server_truth(admin)
    users = summary.resources["users"]
    assert users.added == len(snapshot(admin.store)["users"]) and users.removed == 0 and users.requests >= 1
    again = await admin.sync()
    assert again.resources["users"].added == 0 and again.resources["users"].changed == 0


async def test_a_repeat_sync_with_nothing_new_reports_no_changes(admin):
    first = await admin.sync()
    assert first.resources["folders"].added > 0
    again = await admin.sync()
    quiet = {name: (r.added, r.changed, r.removed) for name, r in again.resources.items() if not r.skipped}
    assert quiet and all(counts == (0, 0, 0) for counts in quiet.values()), quiet  # folders too, rewritten whole yet compared by content
    await admin.client.create_personal_folder({"folderName": "新しいフォルダ"})
    third = await admin.sync()
    assert third.resources["personal_folders"].added == 1 and third.total().changed == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_interrupted_at_a_random_page_then_resumed(admin, seed):
    rng = random.Random(seed)
    stop_after = rng.randint(1, 4)
    pages = 0

    async def flaky(code, params):
        nonlocal pages
        pages += 1
        if pages > stop_after:
            raise Interrupted
        return await admin._page(code, params)

    syncer = Syncer(admin.store, flaky, admin.client.iter_pages, page_size=7)
    with pytest.raises(Interrupted):
        await syncer.run(resources=["users"])
    partial = snapshot(admin.store)["users"]
    assert 0 < len(partial) and len(partial) == len(set(partial))  # consistent: whole pages only
    checkpoint = admin.store.checkpoint("users")
    assert checkpoint.completed_at is None and checkpoint.next_page == stop_after

    resumed_requests = []

    async def counting(code, params):
        resumed_requests.append(params.get("page"))
        return await admin._page(code, params)

    await Syncer(admin.store, counting, admin.client.iter_pages).run(resources=["users"])
    assert snapshot(admin.store)["users"] == (await server_truth(admin))["users"]
    assert resumed_requests[0] == stop_after  # resumed where it stopped, with the same page size


async def test_pages_that_wait_for_a_busy_cache_are_stored_together(admin):
    """While the cache is busy writing, the pages fetched meanwhile are stored in one later
    write (one commit for several pages is what keeps a 100k sync at the service's pace),
    and nothing is lost or stored twice."""
    fetched = 0
    five_fetched = asyncio.Event()

    async def fetch(code, params):
        nonlocal fetched
        page = await admin._page(code, params)
        fetched += 1
        if fetched >= 5:
            five_fetched.set()
        return page

    writes: list[int] = []

    async def busy_cache(fn, *args, **kwargs):
        if fn == admin.store.put and kwargs.get("checkpoint") is not None:
            writes.append(len(args[1]))
            for _ in range(100_000 if len(writes) == 1 else 0):  # the first write is still running while pages come in
                if five_fetched.is_set():
                    break
                await asyncio.sleep(0)  # (a bounded number of turns: a sync that waits for each write never gets there)
        return fn(*args, **kwargs)

    await Syncer(admin.store, fetch, admin.client.iter_pages, page_size=7, run=busy_cache).run(resources=["users"])
    assert snapshot(admin.store)["users"] == (await server_truth(admin))["users"]
    assert writes[0] == 7 and max(writes) >= 2 * 7  # later pages went in together
    assert len(writes) < fetched


async def test_a_failed_write_stores_no_page_after_it(admin):
    """Pages waiting behind a write that fails are not stored: their checkpoint would pass
    over the failed page, and the resumed sync would never fetch it again."""
    writes = 0

    async def failing_cache(fn, *args, **kwargs):
        nonlocal writes
        if fn == admin.store.put and kwargs.get("checkpoint") is not None:
            writes += 1
            if writes == 2:
                raise OSError("disk full")
        return fn(*args, **kwargs)

    with pytest.raises(OSError):
        await Syncer(admin.store, admin._page, admin.client.iter_pages, page_size=7, run=failing_cache).run(resources=["users"])
    stored = snapshot(admin.store)["users"]
    assert admin.store.checkpoint("users").next_page == 1 and len(stored) == 7  # the first page only
    await Syncer(admin.store, admin._page, admin.client.iter_pages).run(resources=["users"])
    assert snapshot(admin.store)["users"] == (await server_truth(admin))["users"]


async def test_contacts_are_synced_alongside_the_users_pass(admin):
    """The users' pass waits on the rate limit page after page; the contacts come in
    meanwhile (not after it), and each resource still counts its own requests."""
    calls: list[str] = []

    async def fetch(code, params):
        calls.append(code)
        return await admin._page(code, params)

    def listing(code, query):
        async def pages():
            async for page in admin.client.iter_pages(code, query):
                calls.append(code)
                yield page
        return pages()

    summary = await Syncer(admin.store, fetch, listing, page_size=7).run(resources=["divisions", "users", "contacts"])
    assert snapshot(admin.store) == await server_truth(admin)
    user_pages = [i for i, code in enumerate(calls) if code == "U1"]
    assert calls.index("X1") < user_pages[-1]  # a page of contacts came before the users' pass ended
    assert summary.resources["users"].requests == len(user_pages)
    assert summary.resources["contacts"].requests == calls.count("X1")
    assert list(summary.resources) == ["divisions", "users", "contacts"]
    parts = summary.resources.values()
    assert max(r.seconds for r in parts) <= summary.total().seconds < sum(r.seconds for r in parts)  # the run's own time


async def test_deleted_on_the_service_is_removed_from_the_cache(admin):
    await admin.sync()
    victim = snapshot(admin.store)["users"][5]
    await admin.client.delete_user(victim)
    division = (await admin.client.list_divisions({"pageSize": 100})).items[-1]
    await admin.client.delete_division(division.divisionId)
    summary = await admin.sync()
    assert summary.resources["users"].removed == 1
    assert admin.store.user(victim) is None
    assert admin.store.division(division.divisionId) is None
    assert snapshot(admin.store) == await server_truth(admin)


async def test_a_list_that_shifts_during_the_pass_deletes_no_one_wrongly(admin):
    """A user deleted between two pages shifts the rest up one: someone is skipped by the
    pass, but checked by id and kept."""
    await admin.sync()
    before = snapshot(admin.store)["users"]
    deleted = []

    async def shifting(code, params):
        page = await admin._page(code, params)
        if code == "U1" and params.get("page") == 0 and not deleted:
            victim = page.items[0].userId  # delete someone already seen: later pages move up
            await admin.client.delete_user(victim)
            deleted.append(victim)
        return page

    await Syncer(admin.store, shifting, admin.client.iter_pages, page_size=7).run(resources=["users"])
    truth = (await server_truth(admin))["users"]
    after = snapshot(admin.store)["users"]
    assert set(truth) <= set(after)  # the user pushed across a page boundary was kept
    assert set(before) - set(truth) == set(deleted)
    summary = await admin.sync()  # the one deleted mid-pass (already seen) goes next time
    assert snapshot(admin.store)["users"] == truth and summary.resources["users"].removed == 1


async def test_contacts_sync_is_incremental(admin):
    await admin.sync()
    folder = (await admin.client.list_folders()).items[0].folderId
    created = await admin.client.create_contact({"folderId": folder.model_dump(), "fullname": "増分 テスト"})
    pages = []

    async def counting(code, params):
        pages.append(code)
        return await admin._page(code, params)

    def listing(code, query):
        pages.append((code, dict(query)))
        return admin.client.iter_pages(code, query)

    summary = await Syncer(admin.store, counting, listing).run(resources=["contacts"])
    assert summary.resources["contacts"].added == 1
    assert admin.store.contact(created.contactId).record.fullname == "増分 テスト"
    (code, query), = [p for p in pages if isinstance(p, tuple)]
    assert "updatedFrom" in query  # only what changed since the last sync was asked for


async def test_sync_respects_the_rate_limit_through_the_client():
    from corpdir.server.settings import RateLimitSettings

    clock = FakeClock()  # the server's bucket and the client's waits share one time
    app = make_server(rate_limit=RateLimitSettings(enabled=True, burst=5, rate=1.0), clock=clock)
    svc = make_service(app, api_key="demo-reception", clock=clock, sleep=clock.sleep)
    try:
        await svc.sync()
        snap = svc.client.rate_limit
        assert snap.rate_limited == 0  # paced, never refused
        assert snap.throttled > 0  # it did have to wait for tokens
    finally:
        await svc.close()


async def test_a_repeat_sync_reads_the_call_history_only_down_to_what_it_holds():
    """Newest first: a history already in the cache costs one page a direction, a new call
    on top is picked up with it, and a full sync still reads every page (and so sees a
    note edited on an old call)."""
    svc = make_service(api_key="demo-reception")
    try:
        first = await svc.sync()
        incoming = [c async for c in svc.client.iter_incoming_calls()]
        outgoing = [c async for c in svc.client.iter_outgoing_calls()]
        assert len(incoming) > 40 and first.resources["calls"].added == len(incoming) + len(outgoing)
        assert first.resources["calls"].requests >= len(incoming) // 20 + len(outgoing) // 20
        new = await svc.client.create_incoming_call({"fromNum": "03-5555-0199", "calledAt": "2099-01-01T09:00:00+09:00",
                                                     "answered": False})
        oldest = min(incoming, key=lambda c: c.calledAt)
        await svc.client.edit_incoming_call(oldest.incomingCallHistoryId, {"note": "折り返し済み"})
        again = await svc.sync()
        # incoming: the page with the new call, then one with nothing new; outgoing: one page
        assert again.resources["calls"].requests == 3 and again.resources["calls"].added == 1
        assert any(c.incomingCallHistoryId == new.incomingCallHistoryId for c in svc.store.calls("incoming"))
        full = await svc.sync(full=True)
        assert full.resources["calls"].requests == first.resources["calls"].requests + (0 if len(incoming) % 20 else 1)
        assert full.resources["calls"].changed == 1
        stored = {c.incomingCallHistoryId: c for c in svc.store.calls("incoming", limit=10_000)}
        assert stored[oldest.incomingCallHistoryId].note == "折り返し済み"
    finally:
        await svc.close()
