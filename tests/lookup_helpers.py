"""`corpdir lookup` as a real process: a cache file filled for a base URL, and the command
run against it (the reference server on 127.0.0.1 is tests/cli/conftest.py's ``server``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any, Iterable

from corpdir.cache.store import CacheStore
from corpdir.paths import Profile

KEY = "demo-reception"


def fill_cache(base_url: str, users: Iterable[dict[str, Any]], contacts: Iterable[dict[str, Any]] = (),
               divisions: Iterable[dict[str, Any]] = (), *, synced_ago: float = 0.0) -> None:
    """The cache of ``base_url`` (with :data:`KEY`) holding these records, synced ``synced_ago`` seconds ago."""
    store = CacheStore(Profile(base_url, KEY).cache_path())
    if divisions:
        store.put_divisions(list(divisions))
    store.put_users(list(users))
    if contacts:
        store.put_contacts(list(contacts))
    store.mark_synced("users", time.time() - synced_ago)
    store.close()


def lookup(*args: str, base_url: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "CORPDIR_BASE_URL": base_url, "CORPDIR_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "corpdir.cli", "lookup", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=120)
