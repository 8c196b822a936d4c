"""What the user may write, one module per kind of record (people, divisions, contacts,
personal folders, call records): each opens the form or asks the question, sends the
write, says what happened, and tells its screen through the callbacks it was given, so
the screen's list, pane and tree follow. A screen holds the helpers it needs; it does not
inherit them.

Forms and dialogs are imported when first opened: most visits write nothing, and the
first paint does not wait for them.
"""

from __future__ import annotations

from typing import Any, Coroutine

from textual.notifications import SeverityLevel
from textual.screen import Screen

from corpdir.tui.context import AppContext


class RecordWrites:
    """What every helper holds: the screen it opens forms over (and notifies on), the
    app context, and the worker group its writes run in one at a time."""

    def __init__(self, host: Screen, context: AppContext, group: str) -> None:
        self.host = host
        self.context = context
        self.service = context.service
        self.group = group

    def run(self, work: Coroutine[Any, Any, None]) -> None:
        """One write (or the read before a form) at a time on this screen."""
        self.host.run_worker(work, group=self.group, exclusive=True, exit_on_error=False)

    def notify(self, message: str, *, severity: SeverityLevel = "information", timeout: float = 3) -> None:
        self.host.notify(message, severity=severity, timeout=timeout)
