"""The detail of one caller-ID answer: the number asked, who has it (the identification
item) and where the answer came from; for a person or contact the cache knows, the whole
record below it (read in a worker)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from corpdir.phone import for_display
from corpdir.service.identify import FIELD_LABELS, NOT_A_NUMBER, Identity
from corpdir.tui.labels import CONTACT_FIELDS, USER_FIELDS, shown_fields
from corpdir.tui.text import Wrapped, joined, literal
from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.record_fields import fields_table

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

SOURCES = {"cache": "the local cache", "service": "the service (N1)"}


@dataclass(frozen=True)
class LookupRow:
    """One line of the results: a number asked and the answer (:class:`Identity`)."""

    answer: Identity

    @property
    def query(self) -> str:
        return self.answer.query

    @property
    def source(self) -> str:
        return "" if self.answer.source == "none" else self.answer.source

    @property
    def kind(self) -> str:
        return "" if self.answer.kind == "unknown" else self.answer.kind

    @property
    def name(self) -> str:
        if self.answer.error == NOT_A_NUMBER:
            return "not a number"
        if self.answer.error and not self.answer.found:
            return f"error: {self.answer.error}"
        return self.answer.who or ("not found" if not self.answer.found else "(no name)")

    def organisation(self, width: int | None = None) -> str:
        """The company and divisions by path, as `corpdir lookup` prints them (within ``width``)."""
        return self.answer.organisation(width)

    @property
    def number(self) -> str:
        return self.answer.stored or self.answer.query


class AnswerDetail(VerticalScroll, can_focus=True):
    DEFAULT_CSS = tcss_beside(__file__)
    answer: reactive[LookupRow | None] = reactive(None, always_update=True)

    def __init__(self, service: DirectoryService, answer: LookupRow | None = None, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.service = service
        self._initial = answer

    def compose(self):
        yield Static(id="answer-title")
        yield Static(id="answer-fields")
        yield Static(id="answer-record")

    def on_mount(self) -> None:
        self.answer = self._initial

    def watch_answer(self, row: LookupRow | None) -> None:
        title = self.query_one("#answer-title", Static)
        fields = self.query_one("#answer-fields", Static)
        self.query_one("#answer-record", Static).update("")
        if row is None:
            title.update(Text("Type numbers above and press Enter", style="dim"))
            fields.update("")
            return
        answer = row.answer
        title.update(literal(row.name, "bold" if answer.found else "bold red" if answer.error else "dim"))
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        shared = f"shared by {answer.count}: {', '.join(answer.first)}{' …' if answer.count > len(answer.first) else ''}"
        for label, value in (("Asked", answer.query), ("Number", for_display(answer.stored, self.service.settings.region)), ("Which", FIELD_LABELS.get(answer.field, answer.field)),
                             ("Company", answer.company), ("Divisions", joined(list(answer.paths) or ([answer.division_path] if answer.division else []))),
                             ("Type", row.kind), ("Holders", shared if answer.shared else ""),
                             ("Record", answer.ref), ("Answered by", SOURCES.get(row.source, row.source))):
            if value not in (None, ""):
                table.add_row(Text(label), Wrapped(value))
        fields.update(table)
        if answer.kind in ("person", "contact") and answer.id is not None:
            self.load_record(row)

    @work(group="answer-record", exclusive=True, exit_on_error=False)
    async def load_record(self, row: LookupRow) -> None:
        if row.answer.kind == "person":
            cached = await self.service.people.user(row.answer.id)
            fields, heading = USER_FIELDS, "Directory record"
        else:
            cached = await self.service.contacts.contact(row.answer.id)
            fields, heading = CONTACT_FIELDS, "Contact record"
        if cached is None or self.answer != row:
            return
        labels = shown_fields(fields, cached.record, self.service)
        self.query_one("#answer-record", Static).update(
            Group(Text(heading, style="bold underline"), fields_table(cached.record, labels, region=self.service.settings.region)))
