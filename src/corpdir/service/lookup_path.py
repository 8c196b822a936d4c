"""The facade's caller-ID path for one process (`corpdir lookup`): the cache file read
directly, the facade built only for the first number the cache cannot answer.

Building a DirectoryService imports pydantic and the cache store, which a PBX pipe
answered from the cache never needs (bench/cache_bench.py --process-only). The answers
are the same as :meth:`DirectoryService.lookup`'s: the cache step is the same reader
(:func:`corpdir.cache.numbers.read`) and the service step is the facade's own
(:meth:`corpdir.service.identify.Identification.resolve`, which keeps what it fetched in
the cache).
"""

from __future__ import annotations

import functools

from corpdir.cache import numbers
from corpdir.cache.blobs import Codec
from corpdir.paths import Profile, lookup_settings, resolve_profile
from corpdir.service.identify import Identifier, Identity

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any


def _settings_light(base_url: str | None) -> tuple[Profile, str, float]:
    """(profile, region, stale_after) without building the full settings when possible."""
    values = lookup_settings()
    profile = resolve_profile(base_url, values)
    if profile is None:  # the key is in the keyring: only the full settings can read it
        from corpdir.config import load_service_settings

        profile = load_service_settings(base_url).profile()
    return profile, values["region"], values["stale_after"]


class LookupPath:
    """Answers from the cache right away, however old it is (its age is :attr:`age`); an
    event loop and the facade are started only for the first number the cache cannot
    answer (then kept for the next ones), or for every number with ``fresh``.

    A stale cache is not a reason to wait for the service: a PBX pipe needs a name while
    the phone rings, and a cache synced 20 minutes ago is right about nearly everyone (a
    stale-cache lookup took 1.3 s against 29 ms). The caller says how old the answer is."""

    def __init__(self, base_url: str | None, *, offline: bool = False, fresh: bool = False) -> None:
        self.base_url = base_url
        self.offline = offline
        profile, region, self.stale_after = _settings_light(base_url)
        self.cache_file = profile.cache_location()
        self._conn = conn = numbers.open_reader(self.cache_file, region)
        # one codec for every number: it keeps the records' compression dictionaries ready
        read = functools.partial(numbers.read, conn, region=region, codec=Codec(conn)) if conn is not None else None
        self.age: float | None = numbers.synced_age(conn)
        """Seconds since the cache was last synced (None: no cache, or never synced)."""
        self.identifier = Identifier(read, fresh=not fresh, region=region)
        self._service: Any = None
        self._loop: Any = None

    @property
    def has_cache(self) -> bool:
        return self._conn is not None

    def damage(self) -> str | None:
        """Why the cache file cannot be read (None: there is none, or it reads)."""
        return numbers.damage(self.cache_file) if self._conn is None else None

    @property
    def stale(self) -> bool:
        return self.age is not None and self.age > self.stale_after

    def _facade(self) -> Any:
        if self._service is None:
            from corpdir.config import load_service_settings
            from corpdir.service.directory import DirectoryService

            self._service = DirectoryService.open(load_service_settings(self.base_url))
        return self._service

    def __call__(self, queries: list[str]) -> list[Identity]:
        answers = self.identifier.cached(queries)
        ask = [] if self.offline else self.identifier.to_ask(answers)
        if not ask:
            return answers
        if self._loop is None:
            import asyncio

            self._loop = asyncio.new_event_loop()
        try:
            resolve = self._facade().identification.resolve
        except Exception as exc:  # noqa: BLE001 - no usable service (a bad key or URL): said per number
            replies = [a if a.found else Identity(a.query, number=a.number, error=str(exc)) for a in ask]
        else:
            replies = self._loop.run_until_complete(self.identifier.ask_service(ask, resolve))
        for reply in replies:  # the service was asked: its "nobody" (or its failure) is the service's answer
            if reply.source == "none":
                reply.source = "service"
        asked = dict(zip(map(id, ask), replies))
        return [asked.get(id(a), a) for a in answers]

    def close(self) -> None:
        if self._loop is not None:
            if self._service is not None:
                self._loop.run_until_complete(self._service.close())
            self._loop.close()
        if self._conn is not None:
            self._conn.close()
