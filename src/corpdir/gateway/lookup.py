"""Caller-ID with a deadline: the cache at once, the service only while the PBX can wait.

A number the cache knows is answered from it (well under a millisecond). One it does not
know is asked of the service (N1) in a task of its own; the request waits for that task
until its deadline and then answers "unknown": a PBX that gets no name in time rings the
phone without one, and a late name is worth nothing to it. The task is not cancelled: its
answer (a name, or "nobody") is remembered for a while, so the next call from the same
number is answered at once, and a number rung ten times costs one N1 request, not ten.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Callable

from corpdir.gateway.numbers import number_forms
from corpdir.phone import match_key
from corpdir.service.callerid import dialable
from corpdir.service.phonebook import MAX_HOLDERS, Entry, Phonebook

log = logging.getLogger("corpdir.gateway")
REMEMBER_FOUND = 15 * 60.0  # seconds an N1 answer is reused (the next sync brings the record)
REMEMBER_UNKNOWN = 5 * 60.0


@dataclass
class Lookup:
    query: str
    entries: list[Entry] = field(default_factory=list)
    source: str = ""  # "cache", "service", or "" (nobody)
    late: bool = False  # the service did not answer within the deadline
    seconds: float = 0.0  # from the request's arrival to the answer, measured here

    @property
    def found(self) -> bool:
        return bool(self.entries)


class CallerLookup:
    def __init__(self, phonebook: Phonebook, *, deadline: float, strip_prefixes: list[str] | tuple[str, ...] = (),
                 ask_service: bool = True, clock: Callable[[], float] = time.monotonic) -> None:
        self.phonebook = phonebook
        self.deadline = deadline
        self.strip_prefixes = tuple(strip_prefixes)
        self.ask = ask_service
        self.clock = clock
        self._asking: dict[str, asyncio.Task[list[Entry]]] = {}
        self._remembered: dict[str, tuple[float, list[Entry]]] = {}

    def cached(self, number: str, limit: int = MAX_HOLDERS) -> tuple[list[str], list[Entry]]:
        forms = number_forms(number, self.phonebook.region, self.strip_prefixes)
        for form in forms:
            if entries := self.phonebook.who_has(form, limit):
                return forms, entries
        return forms, []

    def now(self, number: str, started: float, limit: int = MAX_HOLDERS) -> tuple[Lookup | None, list[str]]:
        """(the answer without waiting: the cache's, or nobody when the service is not
        asked; None when only the service can tell, then await :meth:`from_service`), and the forms
        of the number worth asking about. A cache probe is a few hundred microseconds at
        most, so it runs where it is asked, on the event loop, with no task and no thread hop."""
        forms, entries = self.cached(number, limit)
        if entries or not forms or not self.ask:
            return Lookup(number, entries, "cache" if entries else "", seconds=self.clock() - started), forms
        return None, forms

    async def from_service(self, number: str, forms: list[str], started: float) -> Lookup:
        """The service's answer for a number the cache does not know (``forms``: from :meth:`now`)."""
        answer = Lookup(number)
        asked = dialable(next((f for f in forms if f.startswith("+")), forms[0]))
        answer.entries, answer.late = await self._service_entries(match_key(asked, self.phonebook.region), asked, started)
        answer.source = "service" if answer.entries else ""
        answer.seconds = self.clock() - started
        return answer

    async def _service_entries(self, key: str, number: str, started: float) -> tuple[list[Entry], bool]:
        now = self.clock()
        if (memo := self._remembered.get(key)) is not None and memo[0] > now:
            return memo[1], False
        task = self._asking.get(key)
        if task is None:
            task = asyncio.ensure_future(self.phonebook.ask_service(number))
            self._asking[key] = task
            task.add_done_callback(lambda t: self._settled(key, t))
        left = self.deadline - (now - started)
        if left <= 0:
            return [], True
        try:
            return await asyncio.wait_for(asyncio.shield(task), left), False
        except asyncio.TimeoutError:
            return [], True
        except Exception:  # noqa: BLE001 - the service failing is "unknown" to a PBX; logged once in _settled
            return [], False

    def _settled(self, key: str, task: asyncio.Task[list[Entry]]) -> None:
        self._asking.pop(key, None)
        if task.cancelled():
            return
        if (error := task.exception()) is not None:
            log.warning("N1 for an uncached number failed: %s", error.__class__.__name__)
            return
        entries = task.result()
        self._remembered[key] = (self.clock() + (REMEMBER_FOUND if entries else REMEMBER_UNKNOWN), entries)
        if len(self._remembered) > 10_000:
            now = self.clock()
            self._remembered = {k: v for k, v in self._remembered.items() if v[0] > now}

    async def close(self) -> None:
        for task in list(self._asking.values()):
            task.cancel()
        await asyncio.gather(*self._asking.values(), return_exceptions=True)
