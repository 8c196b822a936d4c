"""The demo tenant's first screen, ready-made: ``corpdir/cache/demo_first_screen.json.gz``.

    python bench/make_demo_seed.py

A fresh install's first `corpdir` would otherwise show "0 people" for seconds: the
embedded service first generates the whole demo tenant (photos and business cards are
most of it), then the app syncs it. The people and divisions the first screen shows are
shipped in the package (~37 KB), exactly as a sync of the embedded demo stores them, and
put into an empty demo cache before the first paint (``corpdir.cache.demo_seed``); the
start-up sync then confirms them.

A maintainer's build step, not part of the package: it runs the reference server, the
client and the cache side by side, which no module of the package may do (the server is
reached over HTTP; docs/architecture.md). The file is deterministic (same generator,
same seed: the same bytes, gzip without a time stamp); ``tests/demo/test_ready.py``
rebuilds it and fails if it differs, e.g. after a change to the generator.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

from corpdir.cache.demo_seed import SEED_FILE, SEED_OF

RESOURCES = ("divisions", "users")  # what the first screen shows: the division tree and the people


async def _records() -> dict[str, object]:
    import httpx

    from corpdir.cache.store import CacheStore
    from corpdir.cache.sync import Syncer
    from corpdir.client import DirectoryClient
    from corpdir.config import ServiceConfig
    from corpdir.paths import DEMO_API_KEY
    from corpdir.server import RateLimitSettings, ServerSettings, create_app
    from corpdir.server.demo import generate_tenant
    from corpdir.spec import OPERATIONS

    size, seed = SEED_OF
    app = create_app(ServerSettings(data=None, demo=generate_tenant(size=size, seed=seed),
                                    rate_limit=RateLimitSettings(enabled=False)))
    settings = ServiceConfig(base_url="http://demo.invalid/v1", api_key=DEMO_API_KEY)
    client = DirectoryClient(settings, transport=httpx.ASGITransport(app=app))
    store = CacheStore(":memory:")

    async def page(code: str, params: dict[str, object]) -> object:
        return await getattr(client, OPERATIONS[code].name)(params)

    try:
        await Syncer(store, page, client.iter_pages).run(resources=RESOURCES)
        out: dict[str, object] = {"size": size, "seed": seed}
        for table in RESOURCES:
            out[table] = [store.codec.load(r[0]) for r in store._rows(f"SELECT data FROM {table} ORDER BY id")]
        return out
    finally:
        await client.aclose()
        store.close()


def build() -> bytes:
    """The file's bytes: the records a sync of the embedded demo stores, gzip'd without a date."""
    text = json.dumps(asyncio.run(_records()), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def main() -> None:
    data = build()
    Path(SEED_FILE).write_bytes(data)
    print(f"wrote {SEED_FILE} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
