"""Busy lamps from Asterisk's hints over the manager interface.

At connect ``ExtensionStateList`` gives every hint's state; then ``ExtensionStatus``
events move one extension, and ``DeviceStateChange`` moves the extension whose hint is
that one device (a hint of several devices is left to its ExtensionStatus). Events that
arrive before the list's answer are older than it and are dropped. Asterisk needs a hint
per extension (``exten => 201,hint,PJSIP/201``) and a manager user with ``read = call``
(docs/calls.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from corpdir.calls.feeds.ami import ami_session
from corpdir.calls.presence.lamps import Lamp, LampBoard

if TYPE_CHECKING:
    from corpdir.config.presence import AmiPresenceConfig

# ExtensionStatus' Status: a bit set (1 in use, 2 busy, 4 unavailable, 8 ringing, 16 on hold)
EXTENSION_STATES = {-2: Lamp.UNKNOWN, -1: Lamp.UNKNOWN, 0: Lamp.FREE, 4: Lamp.UNREACHABLE, 8: Lamp.RINGING}
DEVICE_STATES = {"NOT_INUSE": Lamp.FREE, "INUSE": Lamp.BUSY, "BUSY": Lamp.BUSY, "ONHOLD": Lamp.BUSY,
                 "RINGINUSE": Lamp.BUSY, "RINGING": Lamp.RINGING, "UNAVAILABLE": Lamp.UNREACHABLE}


def extension_lamp(status: object) -> Lamp:
    """An ExtensionStatus' Status as a lamp: in use, busy or on hold (with or without
    another call ringing) is on the phone."""
    try:
        code = int(str(status))
    except ValueError:
        return Lamp.UNKNOWN
    return EXTENSION_STATES.get(code, Lamp.BUSY if code & (1 | 2 | 16) else Lamp.UNKNOWN)


class AmiLamps:
    name = "Asterisk"

    def __init__(self, config: AmiPresenceConfig) -> None:
        self.config = config

    def _ours(self, event: Any) -> bool:
        return not self.config.context or event.get("Context") == self.config.context

    async def run(self, board: LampBoard, changed: Callable[[set[str]], None]) -> None:
        devices: dict[str, str] = {}  # a hint's one device -> its extension
        listing: list[Any] = []  # the ExtensionStateList action, once sent
        held: list[Any] | None = []  # events after the list's end, until the list is on the board

        def on_event(manager: Any, event: Any) -> None:
            if not listing or not listing[0].done():
                return  # older than the list, which already holds its outcome
            if held is not None:
                held.append(event)
            elif touched := self._apply(board, devices, event):
                changed(touched)

        async with ami_session(self.config.host, self.config.port, self.config.username,
                               self.config.secret.get_secret_value(), on_event=on_event,
                               patterns=("ExtensionStatus", "DeviceStateChange")) as manager:
            listing.append(manager.send_action({"Action": "ExtensionStateList"}))
            answer = await listing[0]
            entries = answer if isinstance(answer, list) else [answer]
            if not entries[0].success:
                raise ConnectionError(f"Asterisk: {entries[0].get('Message') or 'ExtensionStateList refused'}")
            board.reset(online=True)
            for entry in entries:
                if self._apply(board, devices, entry) and "&" not in (hint := str(entry.get("Hint") or "")):
                    devices[hint] = entry["Exten"]
            changed(set())
            for event in held:
                if touched := self._apply(board, devices, event):
                    changed(touched)
            held = None
            raise ConnectionError(await manager.lost)

    def _apply(self, board: LampBoard, devices: dict[str, str], event: Any) -> set[str]:
        """One ExtensionStatus or DeviceStateChange on the board: the extensions it moved."""
        if event.get("Event") == "ExtensionStatus" and self._ours(event) and event.get("Exten"):
            return board.tell(event["Exten"], extension_lamp(event.get("Status")))
        if event.get("Event") == "DeviceStateChange" and (extension := devices.get(event.get("Device", ""))):
            return board.tell(extension, DEVICE_STATES.get(str(event.get("State")), Lamp.UNKNOWN))
        return set()
