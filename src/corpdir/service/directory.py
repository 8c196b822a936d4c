"""DirectoryService: the composition root the front ends are given.

It builds one small service per area, mirroring the client's resources, and hands them
out: ``service.people``, ``divisions``, ``contacts`` (and folders), ``calls``, ``images``,
``search``, ``sync`` and ``identification``. Each area reads the cache at once and asks
the API through one helper that keeps the answer in the cache
(:meth:`corpdir.service.backend.Backend.ask`). The cache store and the client are the
backend's, which no front end imports; here is only what is about the service as a whole:
whether the API answered lately (``online``), the variant, the rate budget. Nothing here
imports Textual.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Iterable

from corpdir.cache.store import CacheStore
from corpdir.service.backend import Backend
from corpdir.service.call_log import CallLog
from corpdir.service.contacts import Contacts
from corpdir.service.divisions import Divisions
from corpdir.service.image_cache import Images
from corpdir.service.identify import Identity
from corpdir.service.numbers import Identification
from corpdir.service.people import People
from corpdir.service.search import Search
from corpdir.service.sync import Sync

if TYPE_CHECKING:
    from corpdir.client import DirectoryClient
    from corpdir.client.ratelimit import BucketSnapshot
    from corpdir.config import ServiceConfig
    from corpdir.config.first import FirstService


class DirectoryService:
    def __init__(self, client: DirectoryClient | None, store: CacheStore, settings: ServiceConfig, *,
                 clock: Callable[[], float] = time.time, connect: Callable[[], DirectoryClient] | None = None) -> None:
        """``client``, or ``connect`` to build it on first use (the TUI paints its first rows
        from the cache before httpx and the operation table are even imported)."""
        if client is None and connect is None:
            raise TypeError("DirectoryService needs a client or a way to connect one")
        self._backend = Backend(client, store, settings, clock=clock, connect=connect)
        self.images = Images(self._backend)
        self.people = People(self._backend, self.images)
        self.divisions = Divisions(self._backend)
        self.contacts = Contacts(self._backend, self.images)
        self.calls = CallLog(self._backend)
        self.search = Search(self._backend)
        self.sync = Sync(self._backend)
        self.identification = Identification(self._backend, self.people, self.divisions, self.sync)  # whose number is this? for every surface

    @classmethod
    def open(cls, settings: ServiceConfig | FirstService, **client_kwargs: object) -> DirectoryService:
        """The store for ``settings`` now, the client (embedded demo when no base URL) on
        first use, for the settings the service has then: the TUI starts on the first
        screen's (:class:`corpdir.config.first.FirstService`) and is given the checked ones
        right after its first rows, before anything is asked of the API."""

        def connect() -> DirectoryClient:
            from corpdir.service.connect import open_client

            settings = service.settings
            if getattr(settings, "provisional", False):  # asked before the app checked its settings:
                from corpdir.config import load_service_settings  # the service's section, read and checked now

                checked = load_service_settings(settings.base_url)
                checked.read_only = settings.read_only
                settings = service.settings = checked
            return open_client(settings, **client_kwargs)

        store = CacheStore(settings.profile().cache_path(), region=settings.region)
        if settings.is_demo:  # a fresh install: the demo's first screen is shipped, not generated and synced
            from corpdir.cache.demo_seed import seed

            seed(store, settings.demo_size, settings.demo_seed)
        service = cls(None, store, settings, connect=connect)  # type: ignore[arg-type]
        return service

    async def close(self) -> None:
        await self._backend.close()

    # -- the service as a whole ------------------------------------------------------------
    @property
    def settings(self) -> ServiceConfig:
        return self._backend.settings

    @settings.setter
    def settings(self, settings: ServiceConfig) -> None:
        self._backend.settings = settings

    @property
    def clock(self) -> Callable[[], float]:
        return self._backend.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._backend.clock = clock

    @property
    def online(self) -> bool | None:
        """Whether the API answered the last request (None until it has been asked)."""
        return self._backend.online

    @property
    def last_error(self) -> str | None:
        """Why the API did not answer, while offline."""
        return self._backend.last_error

    @property
    def is_demo(self) -> bool:
        return self.settings.is_demo

    @property
    def variant(self) -> str:
        return self._backend.variant().name

    def offers(self, code: str) -> bool:
        return self._backend.offers(code)

    @property
    def rate_limit(self) -> BucketSnapshot | None:
        """The client's token bucket, or None while no request has been made."""
        return self._backend.rate_limit

    def reserve_rate_share(self, share: float) -> None:
        """Keep ``share`` of the key's rate budget for what is asked inside
        :meth:`corpdir.service.phonebook.Phonebook.ask_service` (the gateway's N1 for a
        ringing phone): a sync never spends it (see corpdir.client.ratelimit)."""
        self._backend.reserve_rate_share(share)

    def label(self) -> str:
        return "DEMO tenant (embedded)" if self.is_demo else str(self.settings.base_url)

    def cache_path(self) -> str:
        """The cache's file, for readers on connections of their own (the gateway's phonebook)."""
        return self._backend.store.path

    def cache_set_aside(self) -> str | None:
        """Where a damaged cache file found at the start was moved (None: it read)."""
        return self._backend.store.set_aside

    # -- caller-ID ------------------------------------------------------------------------
    async def identify_cached(self, numbers: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """Who has each number, from the cache only (no request), in N1's shape: for call
        rows whose record names no one. One trip to the cache's thread for all the numbers."""
        wanted = list(dict.fromkeys(n for n in numbers if n))
        answers = await self.identification.cached(wanted) if wanted else []
        return {a.query: [a.item()] for a in answers if a.found}

    async def lookup(self, numbers: Iterable[str]) -> list[Identity]:
        """Whose numbers these are (:mod:`corpdir.service.identify`): the cache, then N1."""
        return await self.identification.lookup(numbers)

