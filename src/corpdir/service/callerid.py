"""Caller-ID: who is this number? The cache answers first; numbers it does not know (or
all of them, when the cache is missing or stale) go to N1, five to a request.

Used by `corpdir lookup` (a person or a PBX pipe) and by the TUI's lookup screen.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

from corpdir.division_path import SEPARATOR, cells, division_path
from corpdir.phone import DEFAULT_REGION, fold_number, match_key
from corpdir.text import printable

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any, Awaitable, Callable, Iterable

    Identify = Callable[[list[str]], Awaitable[list[dict[str, Any]]]]
    """N1: numbers (at most 5, dialable) -> identification items as dicts."""
    CacheLookup = Callable[[str], list[dict[str, Any]]]
    Runner = Callable[..., Awaitable[Any]]

N1_BATCH = 5
NOT_A_NUMBER = "not a phone number"
_NOT_DIALABLE = re.compile(r"[^0-9*#,;+\-]")  # every query is checked: compiled at import


def dialable(text: str) -> str:
    """The number as the service accepts it (PHONE_CHARS): '03 (1234) 5678' and
    '０３（１２３４）５６７８' -> '0312345678'."""
    return _NOT_DIALABLE.sub("", fold_number(text))


class Answer:
    """One number's answer. (A plain class: this module is on `corpdir lookup`'s start-up
    path, and dataclasses cost it ~10 ms of imports.)"""

    __slots__ = ("query", "items", "source", "error")

    def __init__(self, query: str, items: list[dict[str, Any]] | None = None, source: str = "",
                 error: str | None = None) -> None:
        self.query = query
        self.items = items if items is not None else []
        self.source = source  # "cache" or "service"
        self.error = error

    def __repr__(self) -> str:
        return f"Answer({self.query!r}, found={self.found}, source={self.source!r}, error={self.error!r})"

    @property
    def found(self) -> bool:
        return bool(self.items)


def open_cache(path: Path) -> sqlite3.Connection | None:
    """The cache file read-only, or None if there is none (or it was never filled)."""
    if not path.is_file():
        return None
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] < 1:
            conn.close()
            return None
    except sqlite3.DatabaseError:
        conn.close()
        return None
    return conn


def cache_age(conn: sqlite3.Connection | None, now: float | None = None) -> float | None:
    """Seconds since the users were last synced into the cache (None: never)."""
    if conn is None:
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'synced_at:users'").fetchone()
    return (now if now is not None else time.time()) - float(row[0]) if row else None


def organisation(item: dict[str, Any], width: int | None = None) -> str:
    """Where the holder of a number belongs, as one text (the third column of `corpdir
    lookup` and of the Lookup screen): the company, then the divisions by path
    ('テスト商事 · 営業部'; a user: '本社 › 営業本部 › 1課'). Within ``width`` cells, the
    first path is shortened from the top ('… › 営業本部 › 1課 (+1)'; the marker only where it
    costs nothing of the division's name or its parent's)."""
    company = item.get("companyName") or ""
    paths = [d for d in item.get("divisionNames") or () if d]
    text = " · ".join(p for p in (company, ", ".join(paths)) if p)
    if width is None or not paths or cells(printable(text)) <= width:
        return text
    prefix = f"{printable(company)} · " if company else ""
    more = f" (+{len(paths) - 1})" if len(paths) > 1 else ""
    room = width - cells(prefix)
    return prefix + division_path(paths[0].split(SEPARATOR), room, marker=more) if room >= 4 else text


def _identifies(item: dict[str, Any]) -> bool:
    """An N1 item names someone (an unknown number comes back with nothing but itself)."""
    return bool(item.get("phoneNum")) and bool(item.get("userId") or item.get("contactId") or item.get("displayName"))


async def _direct(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


class CallerId:
    """Two steps: :meth:`cached` (synchronous: a PBX pipe answered from the cache never
    starts an event loop) and :meth:`ask_service` (N1, for what the cache could not
    answer, or everything when the cache is stale). :meth:`lookup` does both; ``run``
    says where the cache step runs (the TUI: the cache's own thread, off the event loop)."""

    def __init__(self, cache_lookup: CacheLookup | None, identify: Identify | None, *, cache_age: float | None,
                 stale_after: float = 15 * 60, region: str = DEFAULT_REGION) -> None:
        self._cache_lookup = cache_lookup
        self._identify = identify
        self.region = region
        self.cache_fresh = cache_age is not None and cache_age <= stale_after

    def cached(self, queries: Iterable[str]) -> list[Answer]:
        answers = [Answer(q) for q in queries]
        for answer in answers:
            if not dialable(answer.query):
                answer.error = NOT_A_NUMBER
            elif self._cache_lookup is not None:
                answer.items = self._cache_lookup(answer.query)
                answer.source = "cache" if answer.items else ""
        return answers

    def to_ask(self, answers: Iterable[Answer]) -> list[Answer]:
        """What the service should answer: unknown to the cache, or all if the cache is stale."""
        if self._identify is None:
            return []
        return [a for a in answers if a.error is None and (not a.items or not self.cache_fresh)]

    async def lookup(self, queries: Iterable[str], run: Runner = _direct) -> list[Answer]:
        answers = await run(self.cached, list(queries))
        if ask := self.to_ask(answers):
            await self.ask_service(ask)
        return answers

    async def ask_service(self, answers: list[Answer]) -> None:
        assert self._identify is not None
        for start in range(0, len(answers), N1_BATCH):
            batch = answers[start:start + N1_BATCH]
            try:
                items = await self._identify([dialable(a.query) for a in batch])
            except Exception as exc:  # noqa: BLE001 - any failure of the service is reported per number
                for answer in batch:
                    if not answer.items:
                        answer.error = str(exc) or exc.__class__.__name__
                continue
            for answer in batch:
                key = match_key(answer.query, self.region)
                mine = [i for i in items if _identifies(i) and match_key(i["phoneNum"], self.region) == key]
                if mine:
                    answer.items, answer.source, answer.error = mine, "service", None
