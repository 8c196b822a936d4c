"""The detail of one call: when, which number, who it was (and how we know), answered or
missed, how long, the note and the voicemail links. All of it service text, shown literally."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from corpdir.phone import for_display
from corpdir.spec.calls import IncomingCall, OutgoingCall
from corpdir.tui.labels import value_label
from corpdir.tui.text import Wrapped, joined, literal
from corpdir.tui.widgets import tcss_beside

WHO_SOURCES = {"record": "named by the service's call record", "cache": "from the directory cache's phone index",
               "": "no one in the directory has this number"}


def local_time(moment: datetime | None) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M") if moment else ""


def minutes(seconds: int | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class CallRow:
    """One call as the list shows it, with who it was resolved once."""

    direction: str  # "incoming" or "outgoing"
    record: IncomingCall | OutgoingCall
    who: dict[str, Any] = field(default_factory=dict)  # an identification item (2.9 shape)
    who_source: str = ""  # "record", "cache" or "" (unknown)
    call_back: bool = False  # a missed call nobody has returned yet
    handled: bool = False  # a missed call the desk marked handled by hand

    @property
    def number(self) -> str:
        return (self.record.fromNum if isinstance(self.record, IncomingCall) else self.record.toNum) or ""

    @property
    def at(self) -> datetime | None:
        return self.record.calledAt if isinstance(self.record, IncomingCall) else self.record.callingAt

    @property
    def name(self) -> str:
        return self.who.get("displayName") or ""

    @property
    def affiliation(self) -> str:
        company = self.who.get("companyName") or ""
        if company == self.name:  # a company's shared number: its name is the company
            company = ""
        divisions = joined(self.who.get("divisionNames") or [])
        return joined([company, divisions], " · ")

    @property
    def who_text(self) -> str:
        if not self.name:
            return "unknown"
        return joined([self.name, self.affiliation], " · ")

    @property
    def outcome(self) -> str:
        if self.record.answered is None:
            return ""
        if self.call_back:
            return "call back"
        if self.handled and not self.record.answered:
            return "handled"
        return "answered" if self.record.answered else "missed"


class CallDetail(VerticalScroll, can_focus=True):
    DEFAULT_CSS = tcss_beside(__file__)
    call: reactive[CallRow | None] = reactive(None, always_update=True)

    def __init__(self, region: str, call: CallRow | None = None, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.number_region = region  # numbers are written as people there write them (corpdir.phone.for_display)
        self._initial = call

    def compose(self):
        yield Static(id="call-title")
        yield Static(id="call-fields")

    def on_mount(self) -> None:
        self.call = self._initial

    def watch_call(self, call: CallRow | None) -> None:
        title = self.query_one("#call-title", Static)
        fields = self.query_one("#call-fields", Static)
        if call is None:
            title.update(Text("Select a call", style="dim"))
            fields.update("")
            return
        number = for_display(call.number, self.number_region)
        heading = literal(call.name or number or "(no number)", "bold")
        heading.append(f"  {'from' if call.direction == 'incoming' else 'to'} {number}" if call.name else "", style="dim")
        title.update(heading)
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        record = call.record
        rows: list[tuple[str, object]] = [
            ("Direction", call.direction),
            ("Time", local_time(call.at)),
            ("Number", number),
            ("Who", call.name or "unknown"),
            ("Company", call.who.get("companyName")),
            ("Divisions", joined(call.who.get("divisionNames") or [])),
            ("Type", value_label("phoneNumContactType", call.who.get("phoneNumContactType"))),
            ("Known from", WHO_SOURCES.get(call.who_source, call.who_source)),
            ("Outcome", call.outcome),
            ("Duration", minutes(record.duration)),
            ("Note", record.note),
        ]
        voicemail = getattr(record, "voicemail", None)
        if voicemail is not None:
            rows += [("Voicemail", voicemail.urlBrowser), ("Voicemail iOS", voicemail.urlIos),
                     ("Voicemail Android", voicemail.urlAndroid)]
        for label, value in rows:
            if value not in (None, ""):
                table.add_row(Text(label), Wrapped(value))  # a voicemail link breaks at its parts
        fields.update(table)
