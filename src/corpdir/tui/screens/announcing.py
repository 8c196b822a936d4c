"""The announced transfer in progress: the caller on hold, the target called, the desk
speaking to them before putting the caller through (``T`` on a card; corpdir.tui.transfer_flow)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from corpdir.text import printable


class Announcing(ModalScreen["bool | None"]):
    """The caller on hold, the target called: c complete (True), r return to the caller
    (False). When the target declines or does not answer it closes by itself (False, and
    :attr:`gone` says why): completing then would lose the caller."""

    CSS_PATH = "announcing.tcss"
    BINDINGS = [Binding("c", "finish(True)", "Complete", id="announce.complete"),
                Binding("r,escape", "finish(False)", "Return to caller", id="announce.return")]

    def __init__(self, caller: str, target: str) -> None:
        super().__init__()
        self.caller = caller
        self.target = target
        self.gone = ""  # the phone system's reason, once the target has gone

    def compose(self) -> ComposeResult:
        with Vertical(id="announcing"):
            yield Static(f"{printable(self.caller)} is on hold.\nCalling {printable(self.target)}: speak to them, then\n"
                         "  c  put the caller through\n  r  return to the caller\n"
                         "If they decline or do not answer, this closes: the caller is back with you.")

    def target_gone(self, reason: str) -> None:
        self.gone = reason or "hung up"
        if self.is_current:
            self.dismiss(False)

    def on_screen_resume(self) -> None:
        """Back on top after another screen: the target may have gone meanwhile."""
        if self.gone:
            self.dismiss(False)

    def action_finish(self, complete: bool) -> None:
        self.dismiss(complete)
