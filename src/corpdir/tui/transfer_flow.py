"""Putting a call through from the TUI: the picker, then the session's transfer, and for
an announced one the desk's "complete or return" (corpdir.tui.screens.transfer_picker),
which closes by itself, the desk back with the caller, when the target declines or does
not answer (the feed's ``target_gone``).

The desk's people (the desk view, F7, and the picker before anything is typed) are its
favourites and the people it has put calls through to most, counted per profile."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from corpdir.calls.session import CallControlFailed
from corpdir.calls.transfer import ANNOUNCED, BLIND
from corpdir.text import printable

if TYPE_CHECKING:
    from corpdir.calls.session import Ring
    from corpdir.tui.desk_phone import DeskPhone

MOST_SHOWN = 12  # people put through to most, on the desk view


def _key(phone: DeskPhone) -> str:
    return f"put_through:{phone.people.key.split(':', 1)[1]}"


def count_put_through(phone: DeskPhone, user_id: int) -> None:
    counts = dict(phone.app.state.get(_key(phone)) or {})
    counts[str(user_id)] = int(counts.get(str(user_id), 0)) + 1
    phone.app.state.set(_key(phone), counts)


async def desk_people(phone: DeskPhone) -> tuple[list[Any], list[Any]]:
    """(favourites, most put through but not favourites), as users from the cache."""
    favourite_ids = [ref.id for ref in phone.people.favourites() if ref.kind == "user"]
    counts = phone.app.state.get(_key(phone)) or {}
    most = [int(i) for i, _ in sorted(counts.items(), key=lambda kv: -int(kv[1])) if int(i) not in favourite_ids]
    favourites = await phone.app.service.people.by_id(favourite_ids) if favourite_ids else []
    put_through = await phone.app.service.people.by_id(most[:MOST_SHOWN]) if most else []
    order = {user_id: i for i, user_id in enumerate(favourite_ids + most)}
    return sorted(favourites, key=lambda u: order[u.userId]), sorted(put_through, key=lambda u: order[u.userId])


def put_through(phone: DeskPhone, ring: Ring, kind: str) -> None:
    """``t`` (BLIND) or ``T`` (ANNOUNCED) on a call's card: only what its feed can."""
    if kind not in phone.session.transfers(ring):
        can = phone.session.transfers(ring)
        phone.app.notify(f"This call can be put through {' or '.join(sorted(can))} only" if can else
                         "This call cannot be put through from here", severity="warning", timeout=4)
        return
    phone.app.run_worker(_pick(phone, ring, kind), group="transfer", exit_on_error=False)


async def _pick(phone: DeskPhone, ring: Ring, kind: str) -> None:
    from corpdir.tui.screens.transfer_picker import TransferPicker

    favourites, most = await desk_people(phone)
    caller = ring.caller.name or ring.caller.formatted
    target = await phone.app.push_screen_wait(TransferPicker(caller, kind, phone.lamps, favourites + most))
    if target is not None:
        await transfer(phone, ring, kind, target)


def _target_gone(screen: Any, gone: asyncio.Future[str]) -> None:
    """The feed said the target went (declined, no answer) while the desk was announcing."""
    if not gone.cancelled() and gone.exception() is None:
        screen.target_gone(gone.result())


async def transfer(phone: DeskPhone, ring: Ring, kind: str, target: Any) -> None:
    """To ``target`` (number, who, the person picked or None); told in a notice either way."""
    from corpdir.tui.screens.announcing import Announcing

    number, who, row = target
    caller = ring.caller.name or ring.caller.formatted
    try:
        await phone.session.transfer(ring, number, kind)
        if kind == ANNOUNCED:
            screen = Announcing(caller, who)
            gone = asyncio.ensure_future(phone.session.target_gone(ring))
            gone.add_done_callback(partial(_target_gone, screen))
            try:
                completes = await phone.app.push_screen_wait(screen)
            finally:
                gone.cancel()
            if completes:
                await phone.session.complete_transfer(ring, number)
            else:
                await phone.session.return_to_caller(ring)
                phone.app.notify((f"{printable(who)} declined or did not answer ({printable(screen.gone)}): "
                                  if screen.gone else "") + f"back with {printable(caller)}",
                                 severity="warning" if screen.gone else "information", timeout=8 if screen.gone else 4)
                return
    except CallControlFailed as exc:
        phone.app.notify(f"Could not put the call through to {printable(who)}: {exc}", severity="error", timeout=8)
        return
    if row is not None:
        count_put_through(phone, row.user_id)
    phone.app.notify(f"Put {printable(caller)} through to {printable(who)}" + (" (blind)" if kind == BLIND else ""),
                     timeout=4)
