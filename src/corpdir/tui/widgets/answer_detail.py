"""The detail of one caller-ID answer: the number asked, who has it (the identification
item) and where the answer came from; for a person or contact the cache knows, the whole
record below it (read in a worker)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from corpdir.service.callerid import NOT_A_NUMBER, organisation
from corpdir.tui.labels import CONTACT_FIELDS, USER_FIELDS, shown_fields
from corpdir.tui.text import Wrapped, joined, literal
from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.record_fields import fields_table

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

SOURCES = {"cache": "the local cache", "service": "the service (N1)"}


@dataclass(frozen=True)
class LookupRow:
    """One line of the results: a number asked and one person who has it (or none)."""

    query: str
    item: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    error: str | None = None

    @property
    def name(self) -> str:
        if self.error == NOT_A_NUMBER:
            return "not a number"
        if self.error:
            return f"error: {self.error}"
        return self.item.get("displayName") or ("not found" if not self.item else "(no name)")

    def organisation(self, width: int | None = None) -> str:
        """The company and divisions by path, as `corpdir lookup` prints them (within ``width``)."""
        return organisation(self.item, width)

    @property
    def number(self) -> str:
        return self.item.get("phoneNum") or self.query


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
        title.update(literal(row.name, "bold" if row.item else "bold red" if row.error else "dim"))
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for label, value in (("Asked", row.query), ("Number", row.item.get("phoneNum")),
                             ("Company", row.item.get("companyName")), ("Divisions", joined(row.item.get("divisionNames") or [])),
                             ("Type", row.item.get("phoneNumContactType")), ("User ID", row.item.get("userId")),
                             ("Contact ID", row.item.get("contactId")), ("Answered by", SOURCES.get(row.source, row.source))):
            if value not in (None, ""):
                table.add_row(Text(label), Wrapped(value))
        fields.update(table)
        if row.item.get("userId") or row.item.get("contactId"):
            self.load_record(row)

    @work(group="answer-record", exclusive=True, exit_on_error=False)
    async def load_record(self, row: LookupRow) -> None:
        if row.item.get("userId"):
            cached = await self.service.user(row.item["userId"])
            labels, heading = shown_fields(USER_FIELDS, embedded_demo=self.service.is_demo), "Directory record"
        else:
            cached = await self.service.contact(row.item["contactId"])
            labels, heading = CONTACT_FIELDS, "Contact record"
        if cached is None or self.answer != row:
            return
        self.query_one("#answer-record", Static).update(
            Group(Text(heading, style="bold underline"), fields_table(cached.record, labels)))
