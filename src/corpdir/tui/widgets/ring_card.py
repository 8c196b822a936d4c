"""One call on the pop-up: who is calling (or "unknown number"), which of their numbers
rang, the last calls from it, and the keys that act on it.

The card is focusable but never takes the focus itself: it appears while someone types in
a form and their keys keep going to the form, until they move to it (F9, or Tab); ← and →
move between the calls. Its actions post :class:`RingCard.Chosen` upwards; the app's desk
phone carries them out."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from corpdir.text import printable
from corpdir.tui.context import context_of
from corpdir.tui.text import literal
from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.photo import PhotoView

if TYPE_CHECKING:
    from corpdir.calls.session import Ring

STATE_TITLES = {"ringing": "Ringing", "answered": "On the line", "ended": "Call ended"}
KEYS = (("a", "answer", "answer"), ("h", "hang_up", "hang up"),  # only where the feed can (Ring.answers, hangs_up)
        ("t", "transfer", "put through"), ("T", "announce", "announce"),  # only what the feed can (session.transfers)
        ("enter", "open", "open"), ("b", "call_back", "call"), ("c", "copy", "copy"),
        ("m", "take_message", "message"), ("s", "save_contact", "save"), ("d", "dismiss", "close"),
        ("D", "dismiss_all", "close all"))
TRANSFERS = {"transfer": "blind", "announce": "announced"}


def when(at: datetime | None) -> str:
    if at is None:
        return ""
    local = at.astimezone()
    today = datetime.now().astimezone().date()
    return f"{local:%H:%M}" if local.date() == today else f"{local:%m/%d %H:%M}"


def duration_text(seconds: int | None) -> str:
    minutes, secs = divmod(int(seconds or 0), 60)
    return f"{minutes}:{secs:02d}"


class RingCard(Vertical, can_focus=True):
    DEFAULT_CSS = tcss_beside(__file__)
    BINDINGS = [Binding(key, action, label, show=False, id=f"ring.{action}") for key, action, label in KEYS] + [
        Binding("escape,delete", "dismiss", "Dismiss", show=False, id="ring.dismiss_alt"),
        Binding("right", "step(1)", "Next call", show=False, id="ring.next_call"),
        Binding("left", "step(-1)", "Previous call", show=False, id="ring.previous_call")]
    WRITES = frozenset({"take_message", "save_contact"})

    class Step(Message):
        """← or → on ``card``: the focus to the call beside it (the band scrolls to a hidden one)."""

        def __init__(self, card: RingCard, delta: int) -> None:
            super().__init__()
            self.card = card
            self.delta = delta

    class Chosen(Message):
        """The user asked for ``action`` on ``ring`` (open, call_back, copy, ...)."""

        def __init__(self, ring: Ring, action: str) -> None:
            super().__init__()
            self.ring = ring
            self.action = action

    def __init__(self, slot: int) -> None:
        """An empty card (hidden): the stack mounts its cards before any call, so a ring
        only fills one in (building and styling widgets took most of the time to paint)."""
        super().__init__(id=f"ring-slot-{slot}")
        self.ring: Ring | None = None
        self.display = False

    def compose(self) -> ComposeResult:
        yield Static(id="ring-head")
        with Horizontal(id="ring-who"):
            yield PhotoView(cells=(8, 4), id="ring-photo")
            yield Static(id="ring-identity")
        yield Static(id="ring-more")
        yield Static(id="ring-keys")

    @work(group="ring-photo", exclusive=True, exit_on_error=False)
    async def load_photo(self, ring: Ring) -> None:
        photo = self.query_one("#ring-photo", PhotoView)
        try:
            jpeg = await self.app.service.images.photo(ring.caller.record_id)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - no photo is not worth a notification on a ringing call
            jpeg = None
        if self.ring is not None and self.ring.uid == ring.uid:
            await photo.show(jpeg, placeholder="")

    def action_step(self, delta: int) -> None:
        self.post_message(self.Step(self, delta))

    def show_ring(self, ring: Ring | None) -> None:
        """Fill the card with ``ring`` (None: hide it)."""
        previous, self.ring = self.ring, ring
        self.display = ring is not None
        if ring is None:
            return
        photo = self.query_one("#ring-photo", PhotoView)
        is_user = ring.caller.kind == "user"
        if previous is None or previous.uid != ring.uid or previous.caller.record_id != ring.caller.record_id:
            photo.update("")
            photo.display = is_user
            if is_user:  # after the card is painted: the photo never delays who is calling
                self.call_after_refresh(self.load_photo, ring)
        self.paint()

    def paint(self) -> None:
        assert self.ring is not None
        ring, caller, event = self.ring, self.ring.caller, self.ring.event
        self.set_class(event.state.value == "ended", "-ended")
        self.query_one("#ring-head", Static).update(self.head_text())
        if caller.known:
            identity = [literal(caller.name, "bold")]
            if caller.kana:
                identity.append(literal(caller.kana, "dim"))
            if caller.affiliation:
                identity.append(literal(caller.affiliation))
            number = Text.assemble(literal(caller.formatted), (f" ({caller.matched_field})" if caller.matched_field else "", "dim"))
            identity.append(number)
            if caller.identity.shared:
                identity.append(Text(f"shared by {caller.identity.count}", style="dim italic"))
        else:
            identity = [Text("Number withheld" if caller.withheld else "Unknown number", style="bold")]
            if not caller.withheld:
                identity.append(literal(caller.formatted))
            if event.display_name:
                identity.append(Text.assemble(("sent as ", "dim"), literal(event.display_name)))
        self.query_one("#ring-identity", Static).update(Group(*identity))
        more: list[Text] = []
        if event.state.value == "ended" and event.answered is None:
            more.append(Text("outcome unknown: not recorded", style="italic"))  # corpdir doctor says why
        if event.state.value == "ended" and event.answered is not None:
            more.append(Text(f"{'answered' if event.answered else 'missed'}"
                             + (f", {duration_text(event.duration)}" if event.answered else ""), style="italic"))
        if caller.recent:
            last = Text("Last: ", style="dim")
            for i, call in enumerate(caller.recent):
                if i:
                    last.append(" · ")
                last.append(f"{when(call.calledAt)} " + ("answered" if call.answered else "missed"))
            more.append(last)
        if ring.note:
            more.append(Text.assemble(("Message: ", "bold"), literal(ring.note)))
        self.query_one("#ring-more", Static).update(Group(*more) if more else "")
        self.query_one("#ring-keys", Static).update(self.keys_text())

    def head_text(self) -> Text:
        """State, time, line and feed, as many as fit the card's width, whole: two or three
        cards side by side at 80 columns cut the line mid-part, ending it in "·"."""
        assert self.ring is not None
        event = self.ring.event
        head = Text(STATE_TITLES[event.state.value], style="bold")  # the time before the feed's name
        parts = [when(event.at)]
        if event.line:  # the phone's active_user query, a script's --line: text, never escapes
            parts.append(f"line {printable(event.line)}")
        parts.append(printable(event.feed))
        width = self.content_size.width  # 0 while hidden: repainted when it gets its size
        for part in parts:
            if width and head.cell_len + 3 + Text(part).cell_len > width:
                break
            head.append(f" · {part}")
        return head

    def keys_text(self) -> Text:
        """The keys this card offers now: a kiosk shows no write, a known caller no 'save'.
        Lines break between hints, never inside one ("d" at a line's end and "close" on
        the next told nothing)."""
        read_only = context_of(self).read_only
        width = self.content_size.width  # 0 while hidden: repainted when it gets its size
        text, line = Text(), 0
        for key, action, label in KEYS:
            if read_only and action in self.WRITES:
                continue
            if not self.offers(action):
                continue
            hint = Text.assemble(("⏎" if key == "enter" else key, "bold"), f" {label}")
            if line and width and line + 2 + hint.cell_len > width:
                text.append("\n")
                line = 0
            elif line:
                text.append("  ")
                line += 2
            text.append_text(hint)
            line += hint.cell_len
        return text

    def on_resize(self) -> None:
        if self.ring is not None:
            self.query_one("#ring-head", Static).update(self.head_text())
            self.query_one("#ring-keys", Static).update(self.keys_text())

    def offers(self, action: str) -> bool:
        """Open needs a caller's record, save an unknown number, calling back a number at all;
        answer a ringing call, hang up one not ended, both only when its feed can."""
        if self.ring is None:
            return False
        if action in ("answer", "hang_up"):
            return self.ring.can_answer if action == "answer" else self.ring.can_hang_up
        if action in TRANSFERS:
            return TRANSFERS[action] in context_of(self).desk_phone.session.transfers(self.ring)
        caller = self.ring.caller
        if action == "open":
            return caller.kind is not None
        if action == "save_contact":
            return not caller.known and not caller.withheld
        return not (action == "call_back" and caller.withheld)

    def _choose(self, action: str) -> None:
        if self.ring is not None:
            self.post_message(self.Chosen(self.ring, action))

    def action_answer(self) -> None:
        self._choose("answer")

    def action_hang_up(self) -> None:
        self._choose("hang_up")

    def action_open(self) -> None:
        self._choose("open")

    def action_call_back(self) -> None:
        self._choose("call_back")

    def action_copy(self) -> None:
        self._choose("copy")

    def action_take_message(self) -> None:
        self._choose("take_message")

    def action_save_contact(self) -> None:
        self._choose("save_contact")

    def action_dismiss(self) -> None:
        self._choose("dismiss")

    def action_dismiss_all(self) -> None:
        self._choose("dismiss_all")
    def action_transfer(self) -> None:
        self._choose("transfer")

    def action_announce(self) -> None:
        self._choose("announce")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.offers(action) if action in ("open", "save_contact", "call_back", "answer", "hang_up", *TRANSFERS) \
            else self.ring is not None


