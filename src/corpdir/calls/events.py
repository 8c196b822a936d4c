"""One shape for every call event, whatever feed it came from.

A feed says "call X is ringing / was answered / ended at this line"; :class:`CallTracker`
remembers each call's ringing and answer times so the end of a call carries whether it
was answered and how long it lasted (what an H2 record needs).

Every text field of an event is made inert and bounded when the event is built, whatever
built it: a feed reads what a phone, a PBX, a script or the service sends (a Yealink's
``active_user`` query, a SIP display name, an argv): one OSC 52 in it would write the
desk's clipboard, one 60 KB name fill the screen. Doing it in the event itself, not in each
feed, covers every feed there is and every one added later.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from enum import Enum

from corpdir.text import printable

log = logging.getLogger("corpdir.calls")


class CallState(str, Enum):
    RINGING = "ringing"
    ANSWERED = "answered"
    ENDED = "ended"


class MalformedEvent(ValueError):
    """An event a feed could not read: logged and skipped, never fatal."""


TEXT_MAX = 128  # characters of one field: a SIP display name, a call id, a line; longer is cut


def bounded(value: object) -> str:
    """``value`` as :func:`~corpdir.text.printable` text of at most :data:`TEXT_MAX`
    characters, ending in "…" when cut. Only the first ``TEXT_MAX + 1`` characters are
    read: printable never shortens text, so they decide whether it is cut."""
    text = printable(("" if value is None else str(value))[:TEXT_MAX + 1])
    return text if len(text) <= TEXT_MAX else text[:TEXT_MAX - 1] + "…"


def now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class CallEvent:
    """One moment of one call at this desk.

    ``number`` is what the caller's side sent (a SIP user part, a PBX CallerIDNum, a
    phone's $remote); ``display_name`` is the name the PBX or the caller sent, shown only
    when the directory does not know the number. ``line`` is the extension or account it
    rang on. ``answered`` and ``duration`` are set on ENDED by the tracker."""

    feed: str
    call_id: str
    state: CallState
    number: str
    display_name: str = ""
    line: str = ""
    at: datetime = field(default_factory=now)
    answered: bool | None = None
    duration: int | None = None
    rang_at: datetime | None = None  # on ENDED: when it started ringing (the record's calledAt); None: not seen
    records: bool = False  # the desk's own feed: its ENDED event becomes an H2 record

    def __post_init__(self) -> None:
        for name in ("feed", "call_id", "number", "display_name", "line"):
            object.__setattr__(self, name, bounded(getattr(self, name)))

    @property
    def key(self) -> str:
        """The call's identity across feeds and restarts (the H2 queue's id per call)."""
        return f"{self.feed}:{self.call_id}"


_SIP_USER = re.compile(r"^(?:sips?|tel):([^@;>]+)")


def number_from_uri(uri: str) -> str:
    """'sip:0312345678@pbx;user=phone' -> '0312345678'; 'tel:+81-3-1234' -> '+81-3-1234'.
    Anything that is not a URI is returned as it is (a bare number)."""
    uri = (uri or "").strip().strip("<>")
    m = _SIP_USER.match(uri)
    return m.group(1) if m else uri


@dataclass
class _Open:
    rang_at: datetime
    answered_at: datetime | None = None


class CallTracker:
    """Completes events with what the feed does not repeat: an ENDED event gets
    ``answered`` and ``duration`` (seconds from answer to end), and the number and name
    seen when it rang if the end carries none. One tracker per feed."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[_Open, CallEvent]] = {}

    def __call__(self, event: CallEvent) -> CallEvent:
        known = self._open.get(event.call_id)
        if event.state is CallState.RINGING:
            self._open[event.call_id] = (_Open(event.at), event)
            return event
        if known is None and event.state is CallState.ENDED:
            # Its start was never seen (the feed joined after it began): whether it was
            # answered, and when it rang, are unknown unless the end itself says so. Never
            # guessed as "missed, 0 s, rang at its end" (the recorder keeps it as unknown).
            return replace(event, answered=event.answered, duration=max(0, event.duration or 0), rang_at=None)
        if known is None:  # joined an answered call (a feed (re)connected, or reconciled at connect)
            opened, first = _Open(event.at, event.at), event
        else:
            opened, first = known
        event = replace(event, number=event.number or first.number, display_name=event.display_name or first.display_name,
                        line=event.line or first.line)
        if event.state is CallState.ANSWERED:
            opened.answered_at = opened.answered_at or event.at
            self._open[event.call_id] = (opened, first)
            return event
        self._open.pop(event.call_id, None)
        answered = event.answered if event.answered is not None else opened.answered_at is not None
        duration = event.duration
        if duration is None:
            duration = round((event.at - opened.answered_at).total_seconds()) if opened.answered_at else 0
        return replace(event, answered=answered, duration=max(0, duration), rang_at=opened.rang_at)
