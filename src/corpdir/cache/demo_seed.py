"""The embedded demo's first screen from a file shipped in the package, not a sync.

On a fresh install the demo cache is empty and the embedded service has not generated
its tenant yet (seconds of work). The people and divisions of the default demo tenant
(500 users, seed 1) are shipped ready-made (built by ``bench/make_demo_seed.py``) and
written into the empty cache before the first paint, with the cache's bulk writer
(~0.1 s). Nothing is marked synced: the start-up sync still runs, finds them unchanged,
and brings the rest (contacts, folders, calls).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from corpdir.cache.store import CacheStore

SEED_FILE = Path(__file__).with_name("demo_first_screen.json.gz")
SEED_OF = (500, 1)  # (users, seed) of the tenant the file holds: the embedded demo's defaults


def seed(store: CacheStore, size: int, seed: int) -> bool:
    """Fill an empty cache with the shipped first screen of the demo tenant (``size``,
    ``seed``); False when there is nothing to do (not empty, another tenant, no file)."""
    if (size, seed) != SEED_OF or not SEED_FILE.is_file() or not store.is_empty():
        return False
    data = json.loads(gzip.decompress(SEED_FILE.read_bytes()))
    if (data.get("size"), data.get("seed")) != SEED_OF:
        return False
    store.put_divisions(data["divisions"])
    store.put_users(data["users"])
    return True
