"""Busy lamps from Asterisk's manager interface: the replay server answers
ExtensionStateList from calls/ami/hints.ami (201, 202 idle, 203 unavailable, 204 in use,
a Custom: hint), then replays calls/ami/lamps.ami (201 calls 202, which rings, answers and
hangs up; 204's call ends, told only by its device; 202's phone goes unavailable) in the
format Asterisk 18 writes them."""

from __future__ import annotations

import pytest

from ami_replay import AmiReplay
from corpdir.calls.presence.lamps import Lamp
from corpdir.calls.presence.watch import Presence
from corpdir.config.presence import AmiPresenceConfig
from lamp_helpers import LampWatcher

FREE, RINGING, BUSY, AWAY, UNKNOWN = Lamp.FREE, Lamp.RINGING, Lamp.BUSY, Lamp.UNREACHABLE, Lamp.UNKNOWN


@pytest.fixture
async def asterisk():
    server = await AmiReplay("lamps.ami", "corpdir", "s3cret", states="hints.ami").start()
    yield server
    await server.stop()


def history(watcher: LampWatcher, extension: str) -> list[Lamp]:
    """The lamps told for ``extension``, in order, each change once."""
    told = [lamps[extension] for _, lamps in watcher.seen if extension in lamps]
    return [lamp for i, lamp in enumerate(told) if i == 0 or told[i - 1] is not lamp]


async def test_the_replayed_hints_give_the_same_lamps_as_the_sip_server(asterisk):
    watcher = LampWatcher()
    config = AmiPresenceConfig(kind="ami", port=asterisk.port, username="corpdir", secret="s3cret")
    watcher.presence = presence = Presence(config, watcher.changed)
    presence.watch(["201", "202", "203", "204", "205"])
    presence.start()
    try:
        await watcher.until({"201": FREE, "202": AWAY, "203": AWAY, "204": FREE})
        assert history(watcher, "202") == [UNKNOWN, FREE, RINGING, BUSY, FREE, AWAY]
        assert history(watcher, "201") == [UNKNOWN, FREE, BUSY, FREE]
        assert history(watcher, "204") == [UNKNOWN, BUSY, FREE]  # from DeviceStateChange alone
        assert presence.lamp("205") is UNKNOWN  # no hint: Asterisk does not know it
        assert {"Action": "ExtensionStateList"}.items() <= asterisk.actions[-1].items()
        asterisk.drop()
        await watcher.until({"201": UNKNOWN, "202": UNKNOWN, "204": UNKNOWN})  # never a stale "free"
    finally:
        await presence.stop()


async def test_a_refused_login_leaves_every_lamp_unknown_and_says_why(asterisk):
    watcher = LampWatcher()
    config = AmiPresenceConfig(kind="ami", port=asterisk.port, username="corpdir", secret="wrong")
    watcher.presence = presence = Presence(config, watcher.changed)
    presence.watch(["201"])
    presence.start()
    try:
        await watcher.holds(lambda: presence.state.startswith("down"))  # told: its lamps went (stayed) unknown
        assert "refused" in presence.state and presence.lamp("201") is UNKNOWN
    finally:
        await presence.stop()
