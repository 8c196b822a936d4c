"""Caller-ID with a deadline: the cache at once, the service only while the PBX can wait.

A number the cache knows is answered from it (well under a millisecond), on the event
loop with no task. One it does not know is asked of the service (N1, and U3 for a person
the cache lacks: :meth:`corpdir.service.identify.Identification.resolve`) in a task of
its own; the request waits for that task until its deadline and then answers "unknown":
a PBX that gets no name in time rings the phone without one, and a late name is worth
nothing to it. The task is not cancelled: its answer (a name, or "nobody") is remembered
for a while and the person it fetched is in the cache, so the next call from the same
number is answered at once, and a number rung ten times costs one N1 request, not ten.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Awaitable, Callable

from corpdir.phone import match_key
from corpdir.service.identify import MAX_HOLDERS, Identity, read_number, spellings

if TYPE_CHECKING:
    from corpdir.service.phonebook import Phonebook

log = logging.getLogger("corpdir.gateway")
REMEMBER_FOUND = 15 * 60.0  # seconds an N1 answer is reused (the person is in the cache by then)
REMEMBER_UNKNOWN = 5 * 60.0
Ask = Callable[[list[str]], Awaitable["Identity | None"]]


class Lookup:
    """One request's answer: the identity, whether the service was too slow, and how long it took here."""

    __slots__ = ("identity", "late", "seconds")

    def __init__(self, identity: Identity, late: bool = False, seconds: float = 0.0) -> None:
        self.identity, self.late, self.seconds = identity, late, seconds

    @property
    def query(self) -> str:
        return self.identity.query

    @property
    def found(self) -> bool:
        return self.identity.found

    @property
    def source(self) -> str:
        return "" if self.identity.source == "none" else self.identity.source


class CallerLookup:
    def __init__(self, phonebook: Phonebook, ask: Ask | None, *, deadline: float,
                 strip_prefixes: list[str] | tuple[str, ...] = (), clock: Callable[[], float] = time.monotonic) -> None:
        """``ask``: the service's answer for one number's spellings (None: the cache only)."""
        self.phonebook = phonebook
        self.ask_service = ask
        self.deadline = deadline
        self.strip_prefixes = tuple(strip_prefixes)
        self.clock = clock
        self._asking: dict[str, asyncio.Task[Identity | None]] = {}
        self._remembered: dict[str, tuple[float, Identity | None]] = {}

    @property
    def ask(self) -> bool:
        return self.ask_service is not None

    def now(self, number: str, started: float, limit: int = MAX_HOLDERS) -> tuple[Lookup | None, Identity]:
        """(the answer without waiting: the cache's, withheld, or nobody when the service
        is not asked; None when only the service can tell, then await :meth:`from_service`),
        and the cache's answer. A cache probe is a few hundred microseconds at most, so it
        runs where it is asked, on the event loop, with no task and no thread hop."""
        identity = read_number(number, lambda forms: self.phonebook.read(forms, limit), self.phonebook.region,
                               self.strip_prefixes)
        if identity.found or identity.kind == "withheld" or identity.error or not self.ask:
            return Lookup(identity, seconds=self.clock() - started), identity
        return None, identity

    async def from_service(self, cached: Identity, started: float) -> Lookup:
        """The service's answer for a number the cache does not know (``cached``: from :meth:`now`)."""
        forms = spellings(cached.query, self.phonebook.region, self.strip_prefixes)
        found, late = await self._service_answer(match_key(cached.number, self.phonebook.region), forms, started)
        return Lookup(found.asked_as(cached.query) if found is not None else cached, late, self.clock() - started)

    async def _service_answer(self, key: str, forms: list[str], started: float) -> tuple[Identity | None, bool]:
        now = self.clock()
        if (memo := self._remembered.get(key)) is not None and memo[0] > now:
            return memo[1], False
        task = self._asking.get(key)
        if task is None:
            assert self.ask_service is not None
            task = asyncio.ensure_future(self.ask_service(forms))
            self._asking[key] = task
            task.add_done_callback(lambda t: self._settled(key, t))
        left = self.deadline - (now - started)
        if left <= 0:
            return None, True
        try:
            return await asyncio.wait_for(asyncio.shield(task), left), False
        except asyncio.TimeoutError:
            return None, True
        except Exception:  # noqa: BLE001 - the service failing is "unknown" to a PBX; logged once in _settled
            return None, False

    def _settled(self, key: str, task: asyncio.Task[Identity | None]) -> None:
        self._asking.pop(key, None)
        if task.cancelled():
            return
        if (error := task.exception()) is not None:
            log.warning("N1 for an uncached number failed: %s", error.__class__.__name__)
            return
        found = task.result()
        self._remembered[key] = (self.clock() + (REMEMBER_FOUND if found is not None else REMEMBER_UNKNOWN), found)
        if len(self._remembered) > 10_000:
            now = self.clock()
            self._remembered = {k: v for k, v in self._remembered.items() if v[0] > now}

    async def close(self) -> None:
        for task in list(self._asking.values()):
            task.cancel()
        await asyncio.gather(*self._asking.values(), return_exceptions=True)
