"""A call record's writes: a record added by hand (H2/H5) and a record edited (H3/H6),
incoming or outgoing."""

from __future__ import annotations

from typing import Any, Callable

from textual.screen import Screen

from corpdir.tui.context import AppContext
from corpdir.tui.record_writes import RecordWrites
from corpdir.tui.widgets.call_detail import CallRow


class CallRecordWrites(RecordWrites):
    """``saved()``: a record was added or saved (the Calls list reads them again)."""

    def __init__(self, host: Screen, context: AppContext, *, saved: Callable[[], None]) -> None:
        super().__init__(host, context, "calls-write")
        self.saved = saved

    def _done(self, record: Any) -> None:
        self.notify("Call record saved")
        self.saved()

    def new(self, direction: str) -> None:
        from corpdir.tui.forms.specs import call_form
        from corpdir.tui.forms.writes import open_form

        open_form(self.host, call_form(direction, None), None, lambda body: self.service.calls.create(direction, body),
                  self._done)

    def edit(self, row: CallRow) -> None:
        from corpdir.tui.forms.specs import call_form
        from corpdir.tui.forms.writes import open_form

        open_form(self.host, call_form(row.direction, row.record), row.record,
                  lambda changes: self.service.calls.edit(row.direction, row.record, changes=changes), self._done)
