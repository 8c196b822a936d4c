"""The facade's caller-ID path for one process (`corpdir lookup`): the cache file read
directly, the API client built only for the first number the cache cannot answer.

This is the facade's lookup without the facade's weight: building a DirectoryService
imports pydantic and the cache store, which a PBX pipe answered from the cache never
needs (bench/cache_bench.py --process-only). The answers are the same as
:meth:`DirectoryService.lookup`'s: both go through :class:`CallerId`, and both complete
N1's items from the cache (:func:`corpdir.cache.numbers.complete`).
"""

from __future__ import annotations

import functools

from corpdir.cache import numbers
from corpdir.cache.blobs import Codec
from corpdir.paths import Profile, lookup_settings, resolve_profile
from corpdir.service.callerid import Answer, CallerId, cache_age, open_cache

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any


def _settings_light(base_url: str | None) -> tuple[Profile, str, float]:
    """(profile, region, stale_after) without building the full settings when possible."""
    values = lookup_settings()
    profile = resolve_profile(base_url, values)
    if profile is None:  # the key is in the keyring: only the full settings can read it
        from corpdir.config import load_settings

        profile = load_settings(service={"base_url": base_url}).service.profile()
    return profile, values["region"], values["stale_after"]


class LookupPath:
    """Answers from the cache right away; an event loop and the API client are started
    only for the first number the cache cannot answer (then kept for the next ones)."""

    def __init__(self, base_url: str | None, *, offline: bool = False) -> None:
        self.base_url = base_url
        profile, self.region, stale = _settings_light(base_url)
        self._conn = conn = open_cache(profile.cache_path())
        if conn is not None:
            numbers.prime_region_rules(conn, self.region)
        # one codec for every number: it keeps the records' compression dictionaries ready
        self._codec = Codec(conn) if conn is not None else None
        cache_lookup = functools.partial(numbers.identify, conn, region=self.region, codec=self._codec) if conn is not None else None
        self._client: Any = None
        self._loop: Any = None
        self.caller = CallerId(cache_lookup, None if offline else self._identify, cache_age=cache_age(conn),
                               region=self.region, stale_after=stale)

    async def _identify(self, batch: list[str]) -> list[dict[str, Any]]:
        if self._client is None:
            from corpdir.config import load_settings
            from corpdir.service.connect import open_client

            self._client = open_client(load_settings(service={"base_url": self.base_url}).service)
        result = await self._client.identify_numbers(batch)
        items = [item.model_dump(mode="json") for item in result.items]
        if self._conn is None:
            return items
        return [numbers.complete(self._conn, item, self.region, self._codec) for item in items]

    def __call__(self, queries: list[str]) -> list[Answer]:
        answers = self.caller.cached(queries)
        if ask := self.caller.to_ask(answers):
            if self._loop is None:
                import asyncio

                self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self.caller.ask_service(ask))
        return answers

    def close(self) -> None:
        if self._loop is not None:
            if self._client is not None:
                self._loop.run_until_complete(self._client.aclose())
            self._loop.close()
        if self._conn is not None:
            self._conn.close()
