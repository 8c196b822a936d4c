"""The cache as a user gets it: the first sync leaves it packed (no page slack to VACUUM
away by hand), and later syncs do not rewrite the whole file again."""

import sqlite3

from corpdir.cache.store import CacheStore
from service_fixtures import make_service


def pages(path) -> tuple[int, int]:
    """(pages in the file, pages a VACUUMed copy of it takes)."""
    conn = sqlite3.connect(path)
    try:
        count = conn.execute("PRAGMA page_count").fetchone()[0]
        copy = f"{path}.packed"
        conn.execute("VACUUM INTO ?", (copy,))
        packed = sqlite3.connect(copy).execute("PRAGMA page_count").fetchone()[0]
    finally:
        conn.close()
    return count, packed


async def test_the_first_sync_leaves_the_cache_packed_and_later_ones_leave_it_be(tmp_path):
    path = tmp_path / "cache.sqlite3"
    service = make_service(api_key="demo-admin", store=CacheStore(path))
    try:
        first = await service.sync.run()
        count, packed = pages(path)
        assert count == packed, (count, packed)  # nothing left for a manual VACUUM to win
        assert first.compacted is not None
        assert (tmp_path / "cache.sqlite3-wal").stat().st_size == 0  # the rewrite's log handed back too
        again = await service.sync.run()
        assert again.compacted is None
    finally:
        await service.close()
