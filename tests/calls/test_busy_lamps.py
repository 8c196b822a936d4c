"""Busy lamps from a real SIP network on loopback: kamailio 5.6 (registrar, proxy, dialog
module, evapi) and two baresip phones registered to it, calling each other through it."""

from __future__ import annotations

import pytest

from corpdir.calls.feeds.baresip import send_command
from corpdir.calls.presence.kamailio import dialogs, registrations, rpc
from corpdir.calls.presence.lamps import Lamp
from corpdir.calls.presence.watch import Presence
from corpdir.config.presence import KamailioPresenceConfig
from kamailio_helpers import HAS_MODULES, KAMAILIO, Kamailio
from lamp_helpers import LampWatcher
from sip_helpers import BARESIP

pytestmark = pytest.mark.skipif(not (KAMAILIO and HAS_MODULES and BARESIP),
                                reason="kamailio with kamailio-json-modules and baresip-core are needed")

FREE, RINGING, BUSY, AWAY, UNKNOWN = Lamp.FREE, Lamp.RINGING, Lamp.BUSY, Lamp.UNREACHABLE, Lamp.UNKNOWN


@pytest.fixture
def network(tmp_path):
    server = Kamailio(tmp_path / "kamailio")
    phones = []

    def phone(extension: str, **kwargs):
        phones.append(server.phone(tmp_path / extension, extension, **kwargs))
        return phones[-1]

    yield server, phone
    for started in phones:
        started.stop()
    server.stop()


def lamps_of(server: Kamailio, watcher: LampWatcher, max_watched: int = 50) -> Presence:
    config = KamailioPresenceConfig(kind="kamailio", evapi=f"127.0.0.1:{server.evapi_port}",
                                    rpc_socket=str(server.rpc_socket), max_watched=max_watched)
    watcher.presence = Presence(config, watcher.changed)
    watcher.presence.start()
    return watcher.presence


def test_kamailio_answers_the_rpc_when_the_temp_dir_is_too_long_for_a_socket(network, monkeypatch, tmp_path):
    """The desk reads registrations and calls up over kamailio's JSON-RPC datagram socket,
    with its answer sent to a socket of ours: a TMPDIR too long for sun_path (a login's, a
    test runner's) must not leave the lamps unknown."""
    import tempfile

    server, _ = network
    long = tmp_path / ("x" * 60) / ("y" * 60)
    long.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    assert registrations(rpc(str(server.rpc_socket), "ul.dump")) == set()
    assert dialogs(rpc(str(server.rpc_socket), "dlg.list")) == []


async def test_the_lamps_follow_a_call_between_two_phones_and_an_unregister(network):
    server, phone = network
    alice, bob = phone("201"), phone("202")
    watcher = LampWatcher()
    presence = lamps_of(server, watcher)
    try:
        presence.watch(["201", "２０２", "203"])  # full width folded; 203 has no phone
        await watcher.until({"201": FREE, "202": FREE, "203": AWAY})
        await send_command("127.0.0.1", alice.ctrl_port, "dial", f"sip:202@127.0.0.1:{server.sip_port}")
        await watcher.until({"201": BUSY, "202": RINGING})  # dialling out is on the phone
        await watcher.answer(bob, {"201": BUSY, "202": BUSY})
        await send_command("127.0.0.1", bob.ctrl_port, "hangup", "")
        await watcher.until({"201": FREE, "202": FREE})
        bob.stop()  # un-REGISTERs on the way out
        await watcher.until({"201": FREE, "202": AWAY})
    finally:
        await presence.stop()


async def test_a_lost_server_shows_unknown_never_a_stale_free_and_recovers(network):
    server, phone = network
    phone("201")
    watcher = LampWatcher()
    presence = lamps_of(server, watcher)
    try:
        presence.watch(["201"])
        await watcher.until({"201": FREE})
        server.stop()
        await watcher.until({"201": UNKNOWN})
        assert presence.state.startswith("down")
        server.start()  # same ports; the phone registers again within its interval, seeded from ul.dump
        await watcher.until({"201": AWAY})
    finally:
        await presence.stop()


async def test_a_desk_that_connects_late_is_seeded_with_the_calls_already_up(network):
    server, phone = network
    alice = phone("201")
    phone("202")
    watcher = LampWatcher()
    probe = lamps_of(server, watcher)
    probe.watch(["202"])
    await watcher.until({"202": FREE})
    await send_command("127.0.0.1", alice.ctrl_port, "dial", f"sip:202@127.0.0.1:{server.sip_port}")
    await watcher.until({"202": RINGING})
    await probe.stop()
    late = LampWatcher()
    presence = lamps_of(server, late)
    try:
        presence.watch(["201", "202"])
        await late.until({"201": BUSY, "202": RINGING})  # from dlg.list: evapi does not replay
    finally:
        await presence.stop()


async def test_only_the_favourites_and_what_is_shown_are_watched_up_to_the_maximum(network):
    server, phone = network
    phone("201"), phone("202"), phone("203")
    watcher = LampWatcher()
    presence = lamps_of(server, watcher, max_watched=2)
    try:
        presence.watch(["201", "202"], favourites=["203"])
        await watcher.until({"203": FREE, "201": FREE})
        assert presence.lamp("202") is UNKNOWN  # the third: over the maximum, not followed
        assert presence.watched == {"203", "201"}
        presence.watch(["202"], favourites=["203"])  # scrolled: 202 is on screen now
        await watcher.until({"202": FREE})
        assert presence.lamp("201") is UNKNOWN
    finally:
        await presence.stop()
