"""Which running corpdir takes calls: the desk (a local, writable TUI) that asked for them,
by a feed or by ``ring_socket = true``; an SSH, browser or kiosk session only when
``[calls] every_session`` says so."""

from __future__ import annotations

import pytest

from calls.test_session import Watcher
from corpdir.calls.session import CallSession
from corpdir.commands.tui import desk_only
from corpdir.config import CallsConfig
from corpdir.service.calls import CallDesk

DESK = {"feeds": [{"kind": "action_url", "name": "desk phone", "token": "t" * 20}], "ring_socket": True,
        "dialer": {"kind": "baresip"}}


@pytest.mark.parametrize("where", ["ssh", "web", "kiosk"])
def test_a_remote_or_kiosk_session_runs_no_feed_and_takes_no_ring(monkeypatch, where):
    monkeypatch.delenv("CORPDIR_SESSION", raising=False)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    if where == "ssh":
        monkeypatch.setenv("CORPDIR_SESSION", "ssh")  # set by `corpdir ssh-server` for its sessions
    if where == "web":
        monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")  # textual-serve's
    calls = desk_only(CallsConfig(**DESK), read_only=where == "kiosk")
    assert (calls.feeds, calls.ring_socket, calls.dialer.kind) == ([], False, "baresip")  # dialing stays
    everywhere = desk_only(CallsConfig(**DESK, every_session=True), read_only=where == "kiosk")
    assert [f.name for f in everywhere.feeds] == ["desk phone"] and everywhere.ring_socket


def test_the_local_desk_keeps_its_feeds(monkeypatch):
    monkeypatch.delenv("CORPDIR_SESSION", raising=False)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert [f.name for f in desk_only(CallsConfig(**DESK), read_only=False).feeds] == ["desk phone"]


@pytest.mark.parametrize("feeds", [False, True], ids=["no feed", "a feed"])
async def test_rings_are_taken_by_default_only_where_a_feed_is(service, feeds):
    config = {"feeds": [{"kind": "history", "name": "history"}]} if feeds else {}
    session = CallSession(CallDesk(service), CallsConfig(**config), Watcher(), queue=None)
    await session.start()
    try:
        assert ("ring" in session.hub.status) is feeds
    finally:
        await session.stop()
