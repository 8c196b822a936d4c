"""A phone's pages before the gateway has read and laid out the whole directory: answered
while the whole is still being read, and the very pages (bytes, entries, Next and Prev) the
whole layout gives once it is made."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from corpdir.cache.fields import CODES
from corpdir.gateway.first_pages import FirstPages, Stale
from corpdir.service.backend import backend_of
from .test_paging import _walk, people_of_one_name


class HeldWhole:
    """The gateway's whole reading of the directory held until :meth:`release`, and what
    answered each page meanwhile: the first pages, or the whole (its reading ends)."""

    def __init__(self, gateway, monkeypatch) -> None:
        self.gateway, self.listing = gateway, gateway.app.gateway.listing
        self.events: list[str] = []
        self.gate: asyncio.Event = gateway.call(_event())
        whole, first_page = self.listing.current, FirstPages.page

        async def held() -> Any:
            await self.gate.wait()
            found = await whole()
            self.events.append("whole read")
            return found

        async def counted(pages: FirstPages, *args: Any, **kwargs: Any) -> Any:
            self.events.append("first pages")
            return await first_page(pages, *args, **kwargs)

        monkeypatch.setattr(self.listing, "current", held)
        monkeypatch.setattr(FirstPages, "page", counted)

    def release(self) -> None:
        """Let the whole be read, wait until it is laid out, and forget the events so far."""
        self.gateway.loop.call_soon_threadsafe(self.gate.set)
        self.gateway.call(self.listing.current())
        self.gateway.call(self.listing.settled())
        assert self.events[-1] == "whole read"
        self.events.clear()


@pytest.mark.parametrize("path, key", [
    ("/cisco/directory.xml", "URL"), ("/cisco/directory.xml?bytes=2000&ascii=1", "URL"), ("/snom/directory.xml", "Url")])
def test_pages_before_the_whole_layout_are_the_pages_of_the_whole_layout(gateway, monkeypatch, path, key):
    people_of_one_name(gateway, "FP", kana="あ やまだ たろう")  # on the first page, each told apart as the whole tells them
    held = HeldWhole(gateway, monkeypatch)
    before = _walk(gateway, f"{gateway.base}{path}", key)
    assert held.events == ["first pages"] * len(before)  # every page answered while the whole was not read
    first = before[0][1].decode()
    assert "山田 太郎 (総務部 › 3課)" in first or "Yamada Tarou (Soumubu &gt; 3 Ka)" in first, first

    held.release()
    after = _walk(gateway, f"{gateway.base}{path}", key)
    assert held.events == []  # from the whole layout
    assert len(after) > 3 and [(url, body) for url, body, _ in after] == [(url, body) for url, body, _ in before]


def test_a_page_far_down_before_the_whole_layout_is_that_of_the_whole_layout(gateway, monkeypatch):
    """A start typed by hand (or kept from before a restart) lies past the first pages read."""
    held = HeldWhole(gateway, monkeypatch)
    url = f"{gateway.base}/cisco/directory.xml?start=201"
    early = gateway.get(url).content
    assert held.events == ["first pages"] and b"Prev" in early and b"Next" in early
    held.release()
    assert gateway.get(url).content == early and held.events == []


def test_searches_before_the_whole_is_read_tell_namesakes_apart_as_the_whole_does(gateway, monkeypatch):
    people_of_one_name(gateway, "FS")
    held = HeldWhole(gateway, monkeypatch)
    urls = [f"{gateway.base}/cisco/directory.xml?q=山田 太郎", f"{gateway.base}/snom/directory.xml?q=やまだ",
            f"{gateway.base}/yealink/directory.xml?q=やまだ たろう"]
    early = [gateway.get(url).content for url in urls]
    assert held.events == []  # answered while the whole directory was not read
    assert all("山田 太郎 (総務部 › 3課)" in body.decode() for body in early)
    held.release()
    assert [gateway.get(url).content for url in urls] == early


def test_people_without_a_name_on_the_first_page_are_told_apart_as_the_whole_does(gateway, monkeypatch):
    """A service may send a user with no name: all such are one name (none) to tell apart."""
    store = backend_of(gateway.service).store
    divisions = [division for division, _ in gateway.call(gateway.service.divisions.all())[:2]]
    store.put_users([{"userId": 990_000 + i, "phoneNum": f"03-5555-09{i:02d}",
                      "divisions": [{"divisionId": d.divisionId, "divisionName": d.divisionName}]}
                     for i, d in enumerate((*divisions, divisions[0]))])
    held = HeldWhole(gateway, monkeypatch)
    early = _walk(gateway, f"{gateway.base}/cisco/directory.xml")
    assert held.events == ["first pages"] * len(early) and b"03-5555-0902)" in early[0][1]  # namesakes in one division
    held.release()
    assert _walk(gateway, f"{gateway.base}/cisco/directory.xml") == early


def test_names_the_cache_index_misses_wait_for_the_whole(gateway):
    """A cache whose name index does not hold the names (written by another version, say):
    the first page is laid out from the whole, never with namesakes left untold."""
    people_of_one_name(gateway, "FX", kana="あ やまだ たろう")
    with sqlite3.connect(gateway.service.cache_path()) as conn:
        name = CODES["fullname"]
        conn.execute("DELETE FROM user_terms WHERE field = ?", (name,))
        conn.execute("DELETE FROM contact_terms WHERE field = ?", (name,))
    first = gateway.get(f"{gateway.base}/cisco/directory.xml").content.decode()
    assert "山田 太郎 (総務部 › 3課)" in first and "山田 太郎 (営業部 › 3課, 03-5555-0700)" in first


def test_while_a_sync_commits_faster_than_first_pages_are_read_the_state_before_it_answers(gateway, monkeypatch):
    url = f"{gateway.base}/cisco/directory.xml"
    before = gateway.get(url).content
    gateway.call(gateway.app.gateway.listing.settled())  # the whole laid out
    people_of_one_name(gateway, "FC", kana="あ やまだ たろう")  # a sync: on the first page once read
    held = HeldWhole(gateway, monkeypatch)

    async def interrupted(*args: Any, **kwargs: Any) -> Any:
        held.events.append("first pages")
        raise Stale  # every read of them met another commit

    monkeypatch.setattr(FirstPages, "page", interrupted)
    assert gateway.get(url).content == before and "whole read" not in held.events
    held.release()
    assert "山田 太郎 (総務部 › 3課)" in gateway.get(url).content.decode()


async def _event() -> asyncio.Event:
    return asyncio.Event()  # made on the gateway's loop
