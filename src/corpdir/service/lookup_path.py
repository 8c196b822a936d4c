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
        from corpdir.config import load_settings

        profile = load_settings(service={"base_url": base_url}).service.profile()
    return profile, values["region"], values["stale_after"]


class LookupPath:
    """Answers from the cache right away; an event loop and the facade are started only
    for the first number the cache cannot answer (then kept for the next ones)."""

    def __init__(self, base_url: str | None, *, offline: bool = False) -> None:
        self.base_url = base_url
        self.offline = offline
        profile, region, stale = _settings_light(base_url)
        self._conn = conn = numbers.open_reader(profile.cache_path(), region)
        # one codec for every number: it keeps the records' compression dictionaries ready
        read = functools.partial(numbers.read, conn, region=region, codec=Codec(conn)) if conn is not None else None
        age = numbers.synced_age(conn)
        self.identifier = Identifier(read, fresh=age is not None and age <= stale, region=region)
        self._service: Any = None
        self._loop: Any = None

    def _facade(self) -> Any:
        if self._service is None:
            from corpdir.config import load_settings
            from corpdir.service.directory import DirectoryService

            self._service = DirectoryService.open(load_settings(service={"base_url": self.base_url}).service)
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
            return [Identity(a.query, number=a.number, error=str(exc)) if a in ask and not a.found else a for a in answers]
        asked = dict(zip(map(id, ask), self._loop.run_until_complete(self.identifier.ask_service(ask, resolve))))
        return [asked.get(id(a), a) for a in answers]

    def close(self) -> None:
        if self._loop is not None:
            if self._service is not None:
                self._loop.run_until_complete(self._service.close())
            self._loop.close()
        if self._conn is not None:
            self._conn.close()
