"""Putting a call through on a real SIP network on loopback: kamailio (registrar, proxy),
baresip as the desk (extension 200, answers by itself) and as the target (202), SIPp as
the outside caller; the call session with the reference server in-process."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import pytest

from calls.test_baresip_calls import next_state, soft_phone
from calls.test_session import Watcher, started
from corpdir.calls.events import CallState, number_from_uri
from corpdir.calls.feeds.baresip import Connection, call_lines, send_command
from corpdir.calls.presence.lamps import Lamp
from corpdir.calls.presence.watch import Presence
from corpdir.calls.session import CallControlFailed, CallSession
from corpdir.calls.transfer import ANNOUNCED, BLIND
from corpdir.config.presence import KamailioPresenceConfig
from kamailio_helpers import HAS_MODULES, KAMAILIO, Kamailio
from lamp_helpers import LampWatcher
from sip_helpers import BARESIP, SCENARIOS, SIPP, Baresip, caller_file, free_sip_port

pytestmark = pytest.mark.skipif(not (KAMAILIO and HAS_MODULES and BARESIP and SIPP),
                                reason="kamailio (+ kamailio-json-modules), baresip-core and SIPp are needed")

CALLER = "0312345699"


async def sipp_transferee(server: Kamailio, folder, desk: str, scenario: str = "transferee.xml"
                          ) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        SIPP, f"127.0.0.1:{server.sip_port}", "-sf", str(SCENARIOS / scenario),
        "-inf", str(caller_file(folder, "外線 太郎", CALLER)), "-s", desk, "-i", "127.0.0.1", "-p", str(free_sip_port()),
        "-m", "1", "-nostdin", "-trace_msg", "-message_file", str(folder / "sipp.log"), "-timeout", "60",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL, cwd=folder)


async def incoming_from(port: int, kind: str = "") -> str:
    """The peer of the first call the phone on ctrl_tcp ``port`` reports (an auto-answering
    account's first word of a call is its SDP offer), or of its first event ``kind``."""
    connection = Connection(*await asyncio.open_connection("127.0.0.1", port))
    try:
        async for payload in connection.messages():
            message = json.loads(payload)
            if message.get("class") == "call" and message.get("peeruri") and message.get("type", "").startswith(kind):
                return str(message["peeruri"])
    finally:
        connection.close()
    raise AssertionError("the phone's control connection closed")


async def registered(server: Kamailio, *extensions: str) -> None:
    watcher = LampWatcher()
    config = KamailioPresenceConfig(kind="kamailio", evapi=f"127.0.0.1:{server.evapi_port}",
                                    rpc_socket=str(server.rpc_socket))
    watcher.presence = presence = Presence(config, watcher.changed)
    presence.watch(extensions)
    presence.start()
    try:
        await watcher.until(dict.fromkeys(extensions, Lamp.FREE))
    finally:
        await presence.stop()


@dataclass
class Network:
    """kamailio, the desk's baresip (200, answers by itself), the target's (202), and the
    call session on the desk's baresip (None under the pilot: the app runs its own)."""

    server: Kamailio
    desk: Baresip
    target: Baresip
    watcher: Watcher
    session: CallSession | None = None


@pytest.fixture
async def network(service, tmp_path):
    """``await network(target_answers=..., session=...)``; everything stopped afterwards."""
    made: list[Network] = []

    async def make(*, target_answers: bool = True, session: bool = True) -> Network:
        server = Kamailio(tmp_path / "kamailio")
        net = Network(server, server.phone(tmp_path / "desk", "200", auto_answer=True),
                      server.phone(tmp_path / "target", "202", auto_answer=target_answers), Watcher())
        made.append(net)
        await registered(server, "200", "202")
        if session:
            net.session = await started(service, net.watcher, feeds=[soft_phone(net.desk)], ring_socket=False)
        return net

    yield make
    for net in made:
        if net.session is not None:
            await net.session.stop()
        net.desk.stop()
        net.target.stop()
        net.server.stop()


async def test_a_blind_transfer_puts_the_caller_through_to_the_target(network, tmp_path):
    net = await network()
    target_hears = asyncio.create_task(incoming_from(net.target.ctrl_port))
    caller = await sipp_transferee(net.server, tmp_path, "200")
    answered = await next_state(net.watcher, CallState.ANSWERED)
    assert net.session.transfers(answered) == {BLIND, ANNOUNCED}
    await net.session.transfer(answered, "２０２")  # full width, folded to 202
    assert number_from_uri(await target_hears) == CALLER  # the caller rings the target, not the desk
    assert await caller.wait() == 0  # the caller talked to the target and hung up
    ended = await next_state(net.watcher, CallState.ENDED)  # the desk's part of the call is over
    assert ended.uid == answered.uid
    assert net.session.transfers(ended) == frozenset()

async def test_a_transfer_to_no_number_is_refused_before_the_phone_is_asked(network, tmp_path):
    net = await network()
    caller = await sipp_transferee(net.server, tmp_path, "200")
    answered = await next_state(net.watcher, CallState.ANSWERED)
    with pytest.raises(CallControlFailed, match="no number"):
        await net.session.transfer(answered, "内線")
    caller.kill()
    await caller.wait()

async def test_t_on_the_card_puts_the_caller_through_to_a_typed_number(service, network, tmp_path):
    from call_helpers import card_text, desk_app, feed_ready
    from tui_helpers import Notifications, wait_for

    net = await network(session=False)
    presence = {"kind": "kamailio", "evapi": f"127.0.0.1:{net.server.evapi_port}",
                "rpc_socket": str(net.server.rpc_socket)}
    app = desk_app(service, feeds=[soft_phone(net.desk)], ring_socket=False, presence=presence)
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        assert await feed_ready(pilot, "soft phone")
        target_hears = asyncio.create_task(incoming_from(net.target.ctrl_port))
        caller = await sipp_transferee(net.server, tmp_path, "200")
        assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
        keys = " ".join(card_text(app).split())
        assert "t put through T announce" in keys  # baresip can do both
        await pilot.press("f9", "t")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TransferPicker")
        await pilot.press(*"２０２", "enter")
        assert number_from_uri(await target_hears) == CALLER
        assert await wait_for(pilot, lambda: notes.said("through to 202"), tries=500), notes.messages
        assert await caller.wait() == 0
        assert await wait_for(pilot, lambda: "Call ended" in card_text(app), tries=500)

async def test_an_announced_transfer_completes_once_the_target_has_answered(network, tmp_path):
    net = await network()
    caller = await sipp_transferee(net.server, tmp_path, "200", "held_transferee.xml")
    answered = await next_state(net.watcher, CallState.ANSWERED)
    consulted = asyncio.create_task(incoming_from(net.target.ctrl_port, "CALL_ESTABLISHED"))
    await net.session.transfer(answered, "202", ANNOUNCED)  # the caller held, the target called
    assert number_from_uri(await consulted) == "200"  # the target speaks to the desk first
    target_hears = asyncio.create_task(incoming_from(net.target.ctrl_port, "CALL_ESTABLISHED"))
    await net.session.complete_transfer(answered, "202")
    assert number_from_uri(await target_hears) == CALLER  # then the caller reaches the target
    assert await caller.wait() == 0
    assert (await next_state(net.watcher, CallState.ENDED)).uid == answered.uid

async def test_an_announced_transfer_the_target_declines_returns_the_caller_to_the_desk(network, tmp_path):
    net = await network(target_answers=False)  # the target rings; its person declines
    caller = await sipp_transferee(net.server, tmp_path, "200", "held_returned.xml")
    answered = await next_state(net.watcher, CallState.ANSWERED)
    ringing = asyncio.create_task(incoming_from(net.target.ctrl_port, "CALL_INCOMING"))
    await net.session.transfer(answered, "202", ANNOUNCED)
    assert number_from_uri(await ringing) == "200"
    await send_command("127.0.0.1", net.target.ctrl_port, "hangup", "")  # declined
    while len(call_lines(str((await send_command("127.0.0.1", net.desk.ctrl_port, "listcalls", "")).get("data")))) > 1:
        await asyncio.sleep(0.05)  # the desk has seen the decline (what its receptionist hears) ...
    await net.session.return_to_caller(answered)  # the caller is taken off hold (its re-INVITE)
    assert await caller.wait() == 0  # ... and talks to the desk, then hangs up
    ended = await next_state(net.watcher, CallState.ENDED)
    assert ended.uid == answered.uid and ended.event.answered is True


async def test_the_announce_screen_closes_by_itself_when_the_target_declines(service, network, tmp_path):
    from call_helpers import card_text, desk_app, feed_ready
    from tui_helpers import Notifications, wait_for

    net = await network(target_answers=False, session=False)  # the target rings; its person declines
    app = desk_app(service, feeds=[soft_phone(net.desk)], ring_socket=False)
    notes = Notifications()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        assert await feed_ready(pilot, "soft phone")
        caller = await sipp_transferee(net.server, tmp_path, "200", "held_returned.xml")
        assert await wait_for(pilot, lambda: "On the line" in card_text(app), tries=500)
        ringing = asyncio.create_task(incoming_from(net.target.ctrl_port, "CALL_INCOMING"))
        await pilot.press("f9", "T")
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TransferPicker")
        await pilot.press(*"２０２", "enter")
        assert number_from_uri(await ringing) == "200"
        assert await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Announcing", tries=500)
        await send_command("127.0.0.1", net.target.ctrl_port, "hangup", "")  # declined
        assert await wait_for(pilot, lambda: notes.said("202 declined or did not answer ("), tries=500), notes.messages
        assert app.screen.__class__.__name__ != "Announcing"  # closed by itself, no key pressed
        assert notes.said("back with")
        assert await caller.wait() == 0  # taken off hold, talked to the desk, hung up
        assert await wait_for(pilot, lambda: "Call ended" in card_text(app), tries=500)
