"""What a feed reads from the wire: netstrings and baresip's JSON, AMI events, the ring
socket's lines. Whatever arrives, a feed gets an event, nothing, or a MalformedEvent (or,
for broken framing, a NetstringError that ends the connection): never anything else.
Hostile names the phone system sends are shown inert on the pop-up."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from call_helpers import card_text, desk_app, feed_ready
from corpdir.calls.events import CallState, MalformedEvent, number_from_uri
from corpdir.calls.feeds.ami import AmiCalls
from corpdir.calls.feeds.baresip import parse
from corpdir.calls.netstring import Decoder, NetstringError, encode
from corpdir.calls.ring_socket import ring
from hostile_text import EVERY, assert_inert
from tui_helpers import wait_for


@given(st.lists(st.binary(max_size=200), max_size=5), st.integers(min_value=1, max_value=7))
def test_netstrings_round_trip_in_any_chunks(payloads, chunk):
    wire = b"".join(encode(p) for p in payloads)
    decoder, out = Decoder(), []
    for start in range(0, len(wire), chunk):
        out += decoder.feed(wire[start:start + chunk])
    assert out == payloads


@given(st.binary(max_size=300))
def test_garbage_is_a_framing_error_or_nothing(data):
    try:
        Decoder().feed(data)
    except NetstringError:
        pass


@given(st.binary(max_size=300))
def test_any_payload_is_an_event_nothing_or_malformed(payload):
    try:
        parse(payload)
    except MalformedEvent:
        pass


def test_baresip_events_become_one_shape():
    event = parse(json.dumps({"event": True, "type": "CALL_INCOMING", "direction": "incoming", "id": "7",
                              "peeruri": "sip:0312345678@pbx;user=phone", "peerdisplayname": "山田",
                              "accountaor": "sip:desk@127.0.0.1"}).encode())
    assert (event.state, event.number, event.display_name, event.line) == (CallState.RINGING, "0312345678", "山田", "desk")
    assert parse(b'{"response": true, "ok": true}') is None
    assert parse(b'{"event": true, "type": "CALL_INCOMING", "direction": "outgoing", "id": "8", "peeruri": "sip:1@x"}') is None
    with pytest.raises(MalformedEvent):
        parse(b'{"event": true, "type": "CALL_CLOSED"}')  # no id, no peer


def test_uris_and_bare_numbers():
    assert number_from_uri("<sips:+81312345678@example.jp>") == "+81312345678"
    assert number_from_uri("tel:+81-3-1234-5678") == "+81-3-1234-5678"
    assert number_from_uri("0312345678") == "0312345678"


def test_ami_withheld_caller_and_other_extensions():
    calls = AmiCalls("201")
    rang = calls({"Event": "DialBegin", "DestChannel": "SIP/201-0000a1", "DestUniqueid": "1.2",
                  "CallerIDNum": "<unknown>", "CallerIDName": "anonymous"})
    assert (rang.number, rang.display_name) == ("", "")
    assert calls({"Event": "DialBegin", "DestChannel": "SIP/2010-0000a2", "DestUniqueid": "1.3"}) is None
    assert calls({"Event": "Hangup", "Uniqueid": "9.9"}) is None  # not a call of ours


@pytest.mark.parametrize("kind", ["csi", "osc52", "bidi", "zero_width", "markup", "cr", "noncharacters", "surrogates",
                                  "invalid_utf8"])
async def test_a_hostile_name_from_the_phone_system_is_shown_inert(service, kind):
    app = desk_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await feed_ready(pilot, "ring")
        sent, _ = await asyncio.to_thread(ring, {"number": "0357001111", "display_name": EVERY[kind]})
        assert sent == 1
        assert await wait_for(pilot, lambda: "Unknown number" in card_text(app))
        assert_inert(card_text(app))
        if kind == "markup":
            assert "[red]x[/red]" in card_text(app)  # shown as typed, not as red
