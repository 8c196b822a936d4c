"""Per-extension lamp states, from what a phone system reports.

Two kinds of source fill a board. A registrar and proxy (kamailio) reports registrations
and dialogs: an extension is free when registered and in no dialog, ringing while a call
to it is early, on the phone while it is in an answered call or dialling out, not
reachable when it has no registration. A PBX's hint engine (Asterisk) tells each
extension's state outright (:meth:`LampBoard.tell`). While the source is not connected
every extension is unknown: a lamp is never left showing a stale "free".

A call's state only moves forward (invite < ringing < answered < ended): with several
proxy workers a 200 can overtake its 180, and an event for a call already ended is late.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum, IntEnum


class Lamp(str, Enum):
    FREE = "free"
    RINGING = "ringing"
    BUSY = "on the phone"
    UNREACHABLE = "not reachable"
    UNKNOWN = "unknown"


class Phase(IntEnum):
    INVITE = 1
    RINGING = 2
    ANSWERED = 3
    ENDED = 4


@dataclass
class Dialog:
    caller: str
    callee: str
    phase: Phase


ENDED_KEPT = 1024  # ended calls remembered, so that a late event of one does not reopen it


class LampBoard:
    def __init__(self) -> None:
        self.online = False
        self.registered: set[str] = set()
        self.dialogs: dict[str, Dialog] = {}
        self.told: dict[str, Lamp] = {}
        self._ended: OrderedDict[str, None] = OrderedDict()

    def reset(self, *, online: bool) -> None:
        """Forget everything (the source dropped, or is about to tell everything again)."""
        self.online = online
        self.registered.clear()
        self.dialogs.clear()
        self.told.clear()

    def lamp(self, extension: str) -> Lamp:
        if not self.online or not extension:
            return Lamp.UNKNOWN
        if extension in self.told:
            return self.told[extension]
        if self.told:  # a hint engine: what it does not name, it does not know
            return Lamp.UNKNOWN
        phases = [(d.phase, d.callee == extension) for d in self.dialogs.values() if extension in (d.caller, d.callee)]
        if any(phase is Phase.ANSWERED or not called for phase, called in phases):
            return Lamp.BUSY
        if phases:
            return Lamp.RINGING
        return Lamp.FREE if extension in self.registered else Lamp.UNREACHABLE

    def call(self, call_id: str, caller: str, callee: str, phase: Phase) -> set[str]:
        """A dialog moved on; returns the extensions whose lamp may have changed."""
        if call_id in self._ended:
            return set()
        known = self.dialogs.get(call_id)
        if known is not None and phase <= known.phase:
            return set()
        if phase is Phase.ENDED:
            self.dialogs.pop(call_id, None)
            self._ended[call_id] = None
            while len(self._ended) > ENDED_KEPT:
                self._ended.popitem(last=False)
        else:
            self.dialogs[call_id] = Dialog(caller, callee, phase)
        return {e for e in (caller, callee) if e}

    def registration(self, extension: str, registered: bool) -> set[str]:
        was = extension in self.registered
        if registered:
            self.registered.add(extension)
        else:
            self.registered.discard(extension)
        return {extension} if was != registered else set()

    def tell(self, extension: str, lamp: Lamp) -> set[str]:
        """The state a hint engine reports for an extension."""
        was = self.told.get(extension)
        self.told[extension] = lamp
        return {extension} if was is not lamp else set()
