"""Whatever a feed brings, a call event holds inert, bounded text, and the pop-up paints
nothing else: a phone's ``active_user`` query with an OSC 52 in it (which wrote the desk's
clipboard), a script's ``--line`` that retitled the pane, a 60 KB name that filled the
screen, a name that is not UTF-8 (which crashed `corpdir ring`)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from dataclasses import fields

import httpx
import pytest

from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.calls.events import TEXT_MAX, CallEvent, CallState, CallTracker
from hostile_text import EVERY, HOSTILE, assert_inert
from sip_helpers import free_port
from tui_helpers import wait_for

TOKEN = "k3Yp9-desk-7Q"
TEXT_FIELDS = [f.name for f in fields(CallEvent) if f.type == "str"]


def shown_fields(event: CallEvent) -> dict[str, str]:
    return {name: getattr(event, name) for name in TEXT_FIELDS}


@pytest.mark.parametrize("kind", list(EVERY))
def test_every_field_of_every_event_is_inert_and_bounded(kind):
    value = EVERY[kind]
    tracker = CallTracker()
    rang = tracker(CallEvent(value, value, CallState.RINGING, value, value, value))
    ended = tracker(CallEvent(value, value, CallState.ENDED, ""))  # the tracker fills in what the end lacks
    assert TEXT_FIELDS == ["feed", "call_id", "number", "display_name", "line"]
    for event in (rang, ended):
        for name, text in shown_fields(event).items():
            assert_inert(text)
            assert len(text) <= TEXT_MAX, name
            text.encode("utf-8")  # writable: no lone surrogate left
    assert ended.answered is False and ended.display_name == rang.display_name


def test_a_long_field_is_cut_with_a_mark_and_a_short_one_kept():
    event = CallEvent("desk", "c1", CallState.RINGING, "0312345678", "巨" * 60_000, "201")
    assert event.display_name == "巨" * (TEXT_MAX - 1) + "…"
    assert (event.number, event.line, event.call_id) == ("0312345678", "201", "c1")


async def test_the_phones_active_user_and_display_name_reach_the_card_inert(service):
    """The Yealink GET of the report: active_user=ESC ] 52 ; c ; <base64> BEL."""
    port = free_port()
    app = desk_app(service, feeds=[{"kind": "action_url", "name": "desk\x1b]0;pwned\x07phone",
                                    "listen": f"127.0.0.1:{port}", "token": TOKEN}])
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "desk\x1b]0;pwned\x07phone")
        async with httpx.AsyncClient() as phone:
            answer = await phone.get(f"http://127.0.0.1:{port}/{TOKEN}/incoming",
                                     params={"remote": "0312340000", "call_id": "77",
                                             "active_user": "\x1b]52;c;cm0gLXJmIH4K\x07201",
                                             "display_name": HOSTILE["noncharacters"] + HOSTILE["osc0"]})
        assert answer.status_code == 200
        assert await wait_for(pilot, lambda: "Unknown number" in card_text(app))
        shown = card_text(app)
        assert_inert(shown)
        assert "line \ufffd]52;c;cm0gLXJmIH4K\ufffd201" in shown
        [card] = cards(app)
        assert card.ring.event.feed == "desk\ufffd]0;pwned\ufffdphone"  # the card's head ends with it
        assert_inert("".join(shown_fields(card.ring.event).values()))


def ring(*args: str | bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "corpdir.cli", "ring", *args], capture_output=True,
                          env=os.environ.copy())


async def test_corpdir_ring_takes_a_name_that_is_not_utf8_a_60kb_name_and_an_escape_in_line(service):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        done = await asyncio.to_thread(ring, "0312340001", "--name", b"Yam\xff\xfeada", "--line", "\x1b]0;TITLE\x07201")
        assert done.returncode == 0, done.stderr
        assert await wait_for(pilot, lambda: "Yam\ufffd\ufffdada" in card_text(app))
        assert "line \ufffd]0;TITLE\ufffd201" in card_text(app)
        done = await asyncio.to_thread(ring, "0312340002", "--name", HOSTILE["huge"], "--call-id", "big")
        assert done.returncode == 0, done.stderr
        assert await wait_for(pilot, lambda: len(cards(app)) == 2)
        assert_inert(card_text(app))
        big = next(card for card in cards(app) if card.ring.event.call_id == "big")
        assert big.ring.event.display_name == "巨" * (TEXT_MAX - 1) + "…"
        assert big.region.height < app.size.height // 2  # a few lines of name, not the screen
