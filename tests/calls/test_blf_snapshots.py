"""What the busy lamps and putting a call through look like, as SVG snapshots at 80x24 and
120x36: the desk view (F7: favourites and the people put through to most, with their
lamps), the transfer picker (its lamp column, free first) and the announced transfer's
"complete or return".

The lamps come from the AMI replay server answering ExtensionStateList with states
written for the demo people's extensions (free, on the phone, ringing, not reachable; one
left out: unknown). Deterministic like tests/calls/test_snapshots.py. After a deliberate
change: ``pytest --snapshot-update tests/calls/test_blf_snapshots.py``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ami_replay import AmiReplay
from calls.test_snapshots import people
from corpdir.calls.presence.lamps import Lamp
from corpdir.calls.transfer import BLIND
from corpdir.config import CallsConfig
from corpdir.service.people_at_hand import ref_of
from corpdir.tui.desk_phone import DeskPhone
from corpdir.tui.transfer_flow import count_put_through
from sip_helpers import free_port
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401 - _still: no blink, Tokyo time
from tui_helpers import listed, screen_text, settle

STATES = (("0", "Idle"), ("1", "InUse"), ("8", "Ringing"), ("4", "Unavailable"))  # the first four people's; the fifth: none
LAMPS = (Lamp.FREE, Lamp.BUSY, Lamp.RINGING, Lamp.UNREACHABLE, Lamp.UNKNOWN)


def lamp_app(cache_path, port: int) -> Any:
    app = synced_app(cache_path)
    presence = {"kind": "ami", "port": port, "username": "corpdir", "secret": "s3cret"}
    app.desk_phone = DeskPhone(app, CallsConfig(ring_socket=False, presence=presence))
    app.context = replace(app.context, desk_phone=app.desk_phone)  # what the screens are built with
    return app


async def replay_hints(pilot, folder, port: int, users: list[Any]) -> None:
    """The replay server on ``port``, its hints giving ``users`` LAMPS."""
    hints = folder / "hints.ami"
    hints.write_bytes("".join(f"Event: ExtensionStatus\r\nExten: {u.extensionNum}\r\nContext: ext-local\r\n"
                              f"Hint: PJSIP/{u.extensionNum}\r\nStatus: {code}\r\nStatusText: {text}\r\n\r\n"
                              for u, (code, text) in zip(users, STATES)).encode())
    pilot.app.replay = await AmiReplay("quiet.ami", "corpdir", "s3cret", states=str(hints)).start(port)


async def desk_people(pilot, folder, port: int) -> list[Any]:
    """Five demo people with extensions: two favourites, three put through to; the replay
    server's hints give them LAMPS."""
    await settle(pilot, listed(pilot, "#users"))
    users = [u for u in await people(pilot, 40) if u.extensionNum][:5]
    await replay_hints(pilot, folder, port, users)
    phone = pilot.app.desk_phone
    for user in users[:2]:
        phone.people.toggle_favourite(ref_of(user))
    for times, user in enumerate(users[2:]):
        for _ in range(3 - times):
            count_put_through(phone, user.userId)
    return users


def lamps_shown(pilot, users: list[Any]):  # noqa: ANN201 - a predicate
    lamps = pilot.app.desk_phone.lamps
    return lambda: all(lamps.lamp(u.extensionNum) is lamp for u, lamp in zip(users, LAMPS)) and \
        "busy lamps: connected" in screen_text(pilot.app)


async def desk_view(pilot, folder, port) -> None:
    users = await desk_people(pilot, folder, port)
    await pilot.press("f7")
    await settle(pilot, lamps_shown(pilot, users))


async def picker(pilot, folder, port) -> None:
    from corpdir.tui.screens.transfer_picker import TransferPicker

    users = await desk_people(pilot, folder, port)
    phone = pilot.app.desk_phone
    await pilot.press("f7")
    await settle(pilot, lamps_shown(pilot, users))
    await pilot.app.push_screen(TransferPicker("山田 太郎", BLIND, phone.lamps, users))
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "TransferPicker")


async def announcing(pilot, folder, port) -> None:
    from corpdir.tui.screens.announcing import Announcing

    await settle(pilot, listed(pilot, "#users"))
    await pilot.app.push_screen(Announcing("山田 太郎", "佐藤 花子 (2042)"))
    await settle(pilot, lambda: pilot.app.screen.__class__.__name__ == "Announcing")


SCENES = {"desk_view": desk_view, "transfer_picker": picker, "announcing": announcing}


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_busy_lamps(scene, size, snap_compare, tmp_path):
    port = free_port()

    async def run_before(pilot) -> None:
        await SCENES[scene](pilot, tmp_path, port)

    assert snap_compare(lamp_app(tmp_path / "cache.sqlite3", port), run_before=run_before, terminal_size=size)


async def directory(pilot, folder, port) -> None:
    """The people list's lamp column: the rows on screen are watched; the first five carry
    LAMPS."""
    await settle(pilot, listed(pilot, "#users"))
    view = pilot.app.screen.query_one("#users")
    users = [view.row(i) for i in range(8) if view.row(i).extensionNum][:5]
    await replay_hints(pilot, folder, port, users)
    await settle(pilot, lambda: all(pilot.app.desk_phone.lamps.lamp(u.extensionNum) is lamp
                                    for u, lamp in zip(users, LAMPS)))


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
def test_busy_lamp_column(size, snap_compare, tmp_path):
    port = free_port()

    async def run_before(pilot) -> None:
        await directory(pilot, tmp_path, port)

    assert snap_compare(lamp_app(tmp_path / "cache.sqlite3", port), run_before=run_before, terminal_size=size)
