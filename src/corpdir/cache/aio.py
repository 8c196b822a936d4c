"""The cache from async code: every call runs on the cache's own thread, never on the loop."""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from corpdir.cache.store import CacheStore

R = TypeVar("R")


class AsyncCache:
    """``await cache.run(store.search, "やまだ")``: SQLite work off the event loop, in order."""

    def __init__(self, store: CacheStore) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="corpdir-cache")

    async def run(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    def run_now(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
        """``fn`` on the cache's thread, in order with what is queued there, the caller
        waiting for it: for the few milliseconds a list's first rows take, where every frame
        painted without them would cost more (docs/performance.md, "TUI start")."""
        return self._executor.submit(fn, *args, **kwargs).result()

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.store.close()
