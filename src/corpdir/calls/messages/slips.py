"""A message slip: what the desk took for a person, and whether it reached them.

Slips are kept per profile in one file (0600: names and numbers are personal data),
written durably (:func:`corpdir.paths.write_durably`) before anything is sent and
again before the mail is handed over, so a restart after a crash knows of every slip and
never hands one over twice (:class:`SlipState`).
"""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import asdict, dataclass, fields, replace
from datetime import datetime, timedelta
from enum import Enum
from pathlib import Path
from typing import Any, Callable

from corpdir.calls.events import log, now
from corpdir.paths import write_durably

KEEP_DAYS = 7  # slips older than this are dropped from the file (the mail is the person's record)


class Outcome(str, Enum):
    """What the caller wants, as a slip's printed boxes: (label, Japanese, the record's short form, brief)."""

    CALL_BACK = "call_back"
    CALLED = "called"
    WILL_CALL_AGAIN = "will_call_again"

    @property
    def label(self) -> str:
        return OUTCOME_LABELS[self][0]

    @property
    def japanese(self) -> str:
        return OUTCOME_LABELS[self][1]

    @property
    def brief(self) -> str:
        """A list column's form."""
        return OUTCOME_LABELS[self][3]

    @property
    def short(self) -> str:
        """The call record's form (its note holds 50 characters)."""
        return OUTCOME_LABELS[self][2]


OUTCOME_LABELS = {
    Outcome.CALL_BACK: ("please call back", "折り返しお電話ください", "折返し希望", "call back"),
    Outcome.CALLED: ("called", "お電話がありました", "電話あり", "called"),
    Outcome.WILL_CALL_AGAIN: ("will call again", "改めてお電話くださるそうです", "再度電話", "calls again"),
}


class SlipState(str, Enum):
    QUEUED = "queued"  # to be e-mailed: tried now and every retry_every until it is
    SENDING = "sending"  # being handed over: the mail server may have it (set durably before DATA)
    SENT = "sent"  # the mail server took it
    HELD = "held"  # cannot go until someone acts (no mail server set, no address, refused): ``error`` says why
    UNCERTAIN = "uncertain"  # a run died while handing it over: it may have arrived; resent only by hand

    @property
    def delivered(self) -> bool:
        return self is SlipState.SENT


@dataclass(frozen=True)
class Slip:
    id: str
    taken_at: str  # ISO 8601, the desk's local time
    for_name: str  # the recipient as the directory names them
    for_email: str  # their email1 ("" when they have none)
    caller_name: str
    caller_number: str
    outcome: Outcome
    text: str = ""
    for_login: str = ""
    call_key: str | None = None  # the call it was taken on (None: taken without a recorded call)
    state: SlipState = SlipState.QUEUED
    error: str = ""  # why it is held, or the last try's failure
    attempts: int = 0
    sent_at: str | None = None

    @property
    def taken(self) -> datetime:
        return datetime.fromisoformat(self.taken_at)

    @property
    def status(self) -> str:
        """What the desk reads in the slips list."""
        if self.state is SlipState.SENT:
            return f"e-mailed {datetime.fromisoformat(self.sent_at).strftime('%H:%M')}" if self.sent_at else "e-mailed"
        if self.state is SlipState.UNCERTAIN:
            return "maybe delivered (cut off while sending): check, or resend"
        if self.state is SlipState.HELD:
            return f"not delivered: {self.error}"
        if self.attempts and self.error:
            return f"not delivered yet, retrying: {self.error}"
        return "sending" if self.state is SlipState.SENDING or not self.attempts else "queued"


def new_slip(**values: Any) -> Slip:
    """Taken now, in the desk's local time (the time the person reads on the slip)."""
    return Slip(id=uuid.uuid4().hex[:16], taken_at=now().astimezone().isoformat(timespec="seconds"), **values)


def _slip(raw: dict[str, Any]) -> Slip:
    known = {f.name for f in fields(Slip)}
    values = {k: v for k, v in raw.items() if k in known}
    values["outcome"] = Outcome(values["outcome"])
    values["state"] = SlipState(values.get("state", "queued"))
    return Slip(**values)


def slips_path(profile_cache: Path, data: Path) -> Path:
    """One file per profile (service and key), beside the call queue."""
    return data / "calls" / f"slips-{profile_cache.stem}.json"


class SlipBook:
    """The profile's slips, newest last. Thread-safe: the courier hands mail over in a thread."""

    def __init__(self, path: Path, *, on_change: Callable[[], None] | None = None,
                 clock: Callable[[], datetime] = now) -> None:
        self.path = path
        self.clock = clock
        self.on_change = on_change
        self._lock = threading.Lock()
        self._slips: dict[str, Slip] = self._load()

    def _load(self) -> dict[str, Slip]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            slips = {s["id"]: _slip(s) for s in raw["slips"]}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.error("message slips %s unreadable (%s): starting a new file beside it", self.path, exc)
            self.path.rename(self.path.with_suffix(".unreadable"))
            return {}
        # A slip a dead run was handing over may have reached the mail server: never sent
        # again on its own (that would be twice), shown so the desk can check and resend.
        return {k: replace(s, state=SlipState.UNCERTAIN) if s.state is SlipState.SENDING else s for k, s in slips.items()}

    def _save(self) -> None:
        oldest = (self.clock() - timedelta(days=KEEP_DAYS)).isoformat()
        keep = [s for s in self._slips.values() if s.taken_at >= oldest or not s.state.delivered]
        self._slips = {s.id: s for s in keep}
        write_durably(self.path, json.dumps({"slips": [asdict(s) for s in keep]}, ensure_ascii=False))

    def put(self, slip: Slip) -> Slip:
        """``slip`` (new or changed) on disk before this returns."""
        with self._lock:
            self._slips[slip.id] = slip
            self._save()
        if self.on_change is not None:
            self.on_change()
        return slip

    def get(self, slip_id: str) -> Slip | None:
        return self._slips.get(slip_id)

    def all(self) -> list[Slip]:
        return sorted(self._slips.values(), key=lambda s: s.taken_at)

    def of_day(self, day: datetime | None = None) -> list[Slip]:
        """The slips taken that day (today by default), and every older one not yet delivered."""
        date = (day or self.clock()).astimezone().date()
        return [s for s in self.all() if s.taken.date() == date or not s.state.delivered]

    def due(self) -> list[Slip]:
        return [s for s in self.all() if s.state is SlipState.QUEUED]


def record_note(slip: Slip, limit: int) -> str:
    """The call record's note for ``slip``, within the record's ``limit`` characters: the
    short outcome and the text, cut with "…", then where the message went ("e-mailed to 山田",
    the recipient's family name; "for 山田" when it is not e-mailed)."""
    family = slip.for_name.split()[0] if slip.for_name.split() else slip.for_name
    where = f" · {'e-mailed to' if slip.state is not SlipState.HELD else 'for'} {family}"
    what = " ".join(part for part in (slip.outcome.short, slip.text) if part)
    room = limit - len(where)
    if room < 1:
        return where.strip(" ·")[:limit]
    return (what if len(what) <= room else what[:room - 1] + "…") + where
