"""Take a message for a person (``m`` on a ringing or ended call): who it is for (searched
as the people list is, defaulting to the person the card shows), who called and their
number (from the card, editable), what they want (call back / called / will call again)
and the text. The form says where the message goes before it is sent: e-mailed to the
person, noted on the call record, or kept as a slip only (F6).

It returns a :class:`SlipDraft`; the desk (:mod:`corpdir.tui.desk_phone`) keeps, mails and
notes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, RadioButton, RadioSet, Static
from textual.widgets.option_list import Option

from corpdir.calls.messages.slips import Outcome
from corpdir.text import printable
from corpdir.tui.screens.help_keys import keys_of
from corpdir.tui.text import clip, literal
from corpdir.tui.wide_space import WideSpaceTyping

MATCHES_SHOWN = 4
MATCH_INDENT = 9  # the matches sit under the field, right of the labels (message_slip.tcss)
TEXT_MAX = 500  # the mail's text; the call record's note gets a short form (50 characters)


@dataclass(frozen=True)
class SlipDraft:
    recipient: Any  # the User the message is for
    caller_name: str
    caller_number: str
    outcome: Outcome
    text: str


class Outcomes(RadioSet):
    """The caller's wish (call back / called / will call again): the arrow keys choose, as
    the radio buttons of a desk form do. Textual's RadioSet only moves its highlight until
    Enter or Space, so a slip said "call back" under a highlighted "called"."""

    def action_next_button(self) -> None:
        super().action_next_button()
        self._press_highlighted()

    def action_previous_button(self) -> None:
        super().action_previous_button()
        self._press_highlighted()

    def _press_highlighted(self) -> None:
        for button in self.query("RadioButton.-selected").results(RadioButton):  # the highlight's class
            button.value = True


class MessageSlipForm(WideSpaceTyping, ModalScreen[SlipDraft | None]):
    CSS_PATH = "message_slip.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="slip.cancel"),
                Binding("ctrl+s", "send", "Send", id="slip.send", priority=True)]

    def __init__(self, service: Any, *, recipient: Any = None, caller_name: str = "", caller_number: str = "",
                 mails: bool = False, record_says: str = "") -> None:
        """``mails``: a mail server is set; ``record_says``: where the note goes with the
        call (the session's words: with the record, or nowhere for a call nobody records)."""
        super().__init__()
        self.service = service
        self.recipient = recipient
        self._caller = (caller_name, caller_number)
        self.mails = mails
        self.record_says = record_says
        self._matches: list[Any] = []

    def compose(self) -> ComposeResult:
        """One line a field (compact inputs): the whole form and its hint fit 80x24 under a card."""
        with Vertical(id="slip"):
            yield Static(literal("Take a message", "bold"))
            with Horizontal(classes="slip-row"):
                yield Static("For", classes="slip-label")
                yield Input(printable(self.recipient.fullname or "") if self.recipient else "", id="slip-for", compact=True,
                            placeholder="name, reading or romaji")
            yield OptionList(id="slip-matches")
            with Horizontal(classes="slip-row"):
                yield Static("Caller", classes="slip-label")
                yield Input(printable(self._caller[0]), id="slip-caller-name", compact=True, placeholder="caller's name")
                yield Input(printable(self._caller[1]), id="slip-caller-number", compact=True, placeholder="number")
            with Outcomes(id="slip-outcome", compact=True):
                for outcome in Outcome:
                    yield RadioButton(outcome.label, value=outcome is Outcome.CALL_BACK, name=outcome.value, compact=True)
            with Horizontal(classes="slip-row"):
                yield Static("Message", classes="slip-label")
                yield Input(id="slip-text", max_length=TEXT_MAX, compact=True, placeholder="e.g. about tomorrow's quote")
            yield Static(id="slip-where")

    def on_mount(self) -> None:
        self.query_one("#slip-matches", OptionList).display = False
        self._say_where()
        self.query_one("#slip-text" if self.recipient is not None else "#slip-for", Input).focus()

    # -- the recipient -------------------------------------------------------------------------
    @on(Input.Changed, "#slip-for")
    def _for_typed(self, event: Input.Changed) -> None:
        if self.recipient is not None and event.value == printable(self.recipient.fullname or ""):
            return
        self.recipient = None
        self._say_where()
        self._search(event.value.strip())

    @work(group="slip-for", exclusive=True)
    async def _search(self, query: str) -> None:
        matches = self.query_one("#slip-matches", OptionList)
        found = (await self.service.search.users(query, limit=MATCHES_SHOWN, first=MATCHES_SHOWN))[1] if query else []
        self._matches = found
        matches.clear_options()
        width = self.query_one("#slip", Vertical).content_region.width - MATCH_INDENT - 2  # the list's padding
        matches.add_options([Option(self._match_line(u, width)) for u in found])
        matches.display = bool(found)
        if found:
            matches.highlighted = 0

    def _match_line(self, user: Any, width: int) -> Text:
        """One line a match: name, reading, extension and division, the path shortened from
        the left to the room left ('…第三営業部 › 1課'). Two people of one name (田中 陽子
        twice) are told apart by where they sit, as the caller names them; a line that
        wrapped showed fewer matches in the four lines the list has."""
        head = "  ".join(printable(v) for v in (user.fullname, user.fullnameKana, user.extensionNum) if v)
        room = width - cell_len(head) - 2
        where = printable(self.service.divisions.path(user.divisions[0], room)) if user.divisions and room >= 8 else ""
        return Text(clip(f"{head}  {where}" if where else head, width), no_wrap=True, overflow="ellipsis")

    @on(Input.Submitted, "#slip-for")
    def _for_chosen_by_enter(self) -> None:
        matches = self.query_one("#slip-matches", OptionList)
        if matches.display and matches.highlighted is not None:
            self._choose(matches.highlighted)

    @on(OptionList.OptionSelected, "#slip-matches")
    def _for_chosen(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option_index)

    def _choose(self, index: int) -> None:
        self.recipient = self._matches[index]
        field = self.query_one("#slip-for", Input)
        with field.prevent(Input.Changed):
            field.value = printable(self.recipient.fullname or "")
        self.query_one("#slip-matches", OptionList).display = False
        self._say_where()
        self.query_one("#slip-caller-name", Input).focus()

    def on_key(self, event: Any) -> None:
        """Up/Down in the recipient field move through its matches."""
        matches = self.query_one("#slip-matches", OptionList)
        if self.focused is self.query_one("#slip-for") and matches.display and event.key in ("down", "up"):
            matches.action_cursor_down() if event.key == "down" else matches.action_cursor_up()
            event.stop()

    # -- where it goes ---------------------------------------------------------------------------
    def _say_where(self) -> None:
        """Where the message goes, and the keys that send it and cancel: the form has no key
        bar, so without this line nothing on screen says how a slip is kept."""
        who = self.recipient
        keys = {binding.id: keys_of(binding, getattr(self.app, "user_keymap", {}))[0] for binding in self.BINDINGS}
        send, cancel = keys["slip.send"], keys["slip.cancel"]
        if who is None:
            where = "Choose whom it is for (type a name; Enter picks the first match)"
        elif not self.mails:
            where = f"No mail server set: {send} keeps it as a slip for {printable(who.fullname or '')} (F6)"
        elif not who.email1:
            where = f"{printable(who.fullname or '')} has no e-mail address: {send} keeps it as a slip (F6)"
        else:
            where = f"{send} e-mails it to {printable(who.fullname or '')} <{printable(who.email1)}>"
        said = literal(f"{where}. {cancel} cancels.", "dim")
        if self.record_says:  # its own line: literal() turns a newline into a visible mark
            said.append("\n")
            said.append_text(literal(f"The note: {self.record_says[0].lower()}{self.record_says[1:]}.", "dim"))
        self.query_one("#slip-where", Static).update(said)

    @on(Input.Submitted, "#slip-text")
    def _text_done(self) -> None:
        self.action_send()

    def action_send(self) -> None:
        if self.recipient is None:
            self.notify("Choose whom the message is for first", severity="warning", timeout=3)
            self.query_one("#slip-for", Input).focus()
            return
        pressed = self.query_one("#slip-outcome", RadioSet).pressed_button
        outcome = Outcome(pressed.name) if pressed is not None and pressed.name else Outcome.CALL_BACK
        self.dismiss(SlipDraft(self.recipient, self.query_one("#slip-caller-name", Input).value.strip(),
                               self.query_one("#slip-caller-number", Input).value.strip(), outcome,
                               self.query_one("#slip-text", Input).value.strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)
