"""The desk's telephone inside the TUI: a thin controller over the call session
(:mod:`corpdir.calls.session`, which runs the feeds, keeps the calls, records and dials).

It turns what the session keeps into the pop-up (a :class:`RingStack` on whatever screen
is open) and the keys of a card into the session's calls, by :attr:`DeskPhone.actions`;
it also opens people (full screen, remembered as recently viewed) and keeps favourites.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from corpdir.calls.dialers import DialFailed, dial_string, tel_uri
from corpdir.calls.recorder import queue_path
from corpdir.calls.session import CallControlFailed, CallSession, Ring
from corpdir.paths import data_dir
from corpdir.service.calls import CallDesk
from corpdir.service.people_at_hand import PeopleAtHand, PersonRef, ref_of
from corpdir.text import printable
from corpdir.calls.transfer import ANNOUNCED, BLIND
from corpdir.tui.busy_lamps import BusyLamps
from corpdir.tui.screens.people_at_hand import PeopleAtHandScreen
from corpdir.tui.transfer_flow import put_through
from corpdir.tui.screens.take_message import TakeMessage
from corpdir.tui.widgets.ring_card import RingCard
from corpdir.tui.widgets.ring_stack import RingStack
from corpdir.tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from textual.screen import Screen

    from corpdir.config import CallsConfig
    from corpdir.tui.app import CorpdirApp


class DeskPhone:
    def __init__(self, app: CorpdirApp, settings: CallsConfig | None) -> None:
        """``settings`` None: no feeds, no ring socket, no dialer (the pop-up never shows),
        but favourites, recent people and the tel: fallback still work. A kiosk records nothing."""
        self.app = app
        self.desk = CallDesk(app.service)  # the Calls screen's too: calls to return, who a call was
        cache = app.service.settings.profile().cache_path()
        self.session = CallSession(self.desk, settings, self, queue=None if app.read_only else queue_path(cache, data_dir()))
        self.people = PeopleAtHand(app.state, cache.stem)
        self.actions: dict[str, Callable[[Ring], None]] = {  # RingCard.KEYS' actions
            "open": self._open, "call_back": self._call_back, "copy": self._copy,
            "take_message": self._take_message, "save_contact": self._save_contact, "dismiss": self.session.dismiss,
            "answer": self._answer, "hang_up": self._hang_up,
            "transfer": lambda ring: put_through(self, ring, BLIND), "announce": lambda ring: put_through(self, ring, ANNOUNCED),
        }
        self.lamps = BusyLamps(app, settings)  # [calls.presence]: the desk view's and the transfer picker's lamps

    async def start(self) -> None:
        if not self.session.enabled:
            return
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)
        self.show()  # the first screen's (hidden) stack, before any call
        self.lamps.start()
        await self.session.start()

    async def stop(self) -> None:
        await self.lamps.stop()
        await self.session.stop()

    def status_text(self) -> str:
        return self.session.status_text()

    # -- what the session tells (SessionObserver) ------------------------------------------------
    def rings_changed(self, rings: tuple[Ring, ...]) -> None:
        self.show()

    def feeds_changed(self) -> None:
        for bar in self.app.screen.query(StatusBar):
            bar.refresh_text()

    # -- the pop-up ----------------------------------------------------------------------------
    def _stack(self, screen: Screen | None = None) -> RingStack:
        """The screen's stack; every screen gets its own (empty, hidden) when it is first
        shown, so a ring fills cards that already exist."""
        screen = screen or self.app.screen
        found = screen.query(RingStack)
        if found:
            return found.first()
        stack = RingStack(id="ring-stack")
        screen.mount(stack)
        return stack

    def show(self) -> None:
        stack = self._stack()
        if stack.is_mounted and stack.children:
            stack.show(list(self.session.rings))
        else:  # just mounted: its cards exist after this refresh
            self.app.call_after_refresh(self.show)

    def _screen_changed(self, screen: Screen) -> None:
        self.app.call_later(self.show)

    def focus_first(self) -> None:
        stack = self.app.screen.query(RingStack)
        card = stack.first().first_card() if stack else None
        if card is None:
            self.app.notify("No call on the pop-up", timeout=2)
            return
        card.focus()

    # -- what the user chose on a card -------------------------------------------------------------
    def choose(self, message: RingCard.Chosen) -> None:
        """The card's call as the session keeps it now (the card may show an older event of it)."""
        ring = self.session.ring_of(message.ring.event.key) or message.ring
        self.actions[message.action](ring)

    def _answer(self, ring: Ring) -> None:
        self.app.run_worker(self._control(self.session.answer(ring), "answer"), group="call-control", exit_on_error=False)

    def _hang_up(self, ring: Ring) -> None:
        self.app.run_worker(self._control(self.session.hang_up(ring), "hang up"), group="call-control", exit_on_error=False)

    async def _control(self, done: Awaitable[None], what: str) -> None:
        """On the phone; the card changes when the phone says it did (its feed's event)."""
        try:
            await done
        except CallControlFailed as exc:
            self.app.notify(f"Could not {what}: {exc}", severity="error", timeout=6)

    def _copy(self, ring: Ring) -> None:
        if ring.caller.withheld:
            self.app.notify("The caller's number was withheld", severity="warning", timeout=3)
            return
        self.app.copy_to_clipboard(ring.event.number)
        self.app.notify(f"Copied {ring.caller.formatted}", timeout=2)

    def _open(self, ring: Ring) -> None:
        if ring.caller.kind is not None:
            self.open_record(ring.caller.kind, ring.caller.record)

    def _call_back(self, ring: Ring) -> None:
        self.dial(ring.event.number)

    def _take_message(self, ring: Ring) -> None:
        def taken(note: str | None) -> None:
            if note is not None:
                self.app.run_worker(self.session.take_message(ring, note), group="call-note", exit_on_error=False)

        self.app.push_screen(TakeMessage(ring.caller.name or ring.caller.formatted, ring.note), taken)

    def _save_contact(self, ring: Ring) -> None:
        self.app.run_worker(new_contact_form(self.app, ring.event.number, ring.event.display_name), group="save-contact",
                            exit_on_error=False)

    # -- dialing ---------------------------------------------------------------------------------
    def dial(self, number: str) -> None:
        """Through the configured dialer; with none, a tel: link to click and the number copied."""
        if not number:
            self.app.notify("No number to call", severity="warning", timeout=3)
            return
        if self.session.dialer is None:
            self.app.copy_to_clipboard(number)
            self.app.notify(f"No dialer configured: copied the number. {tel_uri(number)}", timeout=6)
            return
        self.app.run_worker(self._dial(number), group="dial", exit_on_error=False)

    async def _dial(self, number: str) -> None:
        """Told as dialled (the digits the phone gets: '０３－１２３４' is '031234')."""
        try:
            dialled = await self.session.dial(number)
        except DialFailed as exc:
            self.app.notify(f"Could not call {dial_string(number)}: {exc}", severity="error", timeout=8)
            return
        self.app.notify(f"Calling {dialled} via {self.session.dialer.name}", timeout=4)  # type: ignore[union-attr]

    # -- people: open, favourites, recently viewed ---------------------------------------------------
    def open_record(self, kind: str, record: Any) -> None:
        """A person's or contact's details full screen; remembered as recently viewed."""
        # Imported on first use: the detail widgets cost 30-80 ms of imports (measured after
        # the Directory screen's), which the app's start does not need.
        from corpdir.tui.screens.detail_screen import DetailScreen
        from corpdir.tui.widgets.contact_detail import ContactDetail
        from corpdir.tui.widgets.user_detail import UserDetail

        detail = UserDetail(self.app.service, user=record) if kind == "user" else ContactDetail(self.app.service, record)
        self.app.push_screen(DetailScreen(detail))
        if (ref := ref_of(record)) is not None:
            self.people.viewed(ref)

    def open_ref(self, ref: PersonRef) -> None:
        self.app.run_worker(self._open_ref(ref), group="open-person", exit_on_error=False)

    async def _open_ref(self, ref: PersonRef) -> None:
        cached = await (self.app.service.people.user(ref.id) if ref.kind == "user" else self.app.service.contacts.contact(ref.id))
        if cached is None:
            self.app.notify(f"{printable(ref.name)} is no longer in the directory cache", severity="warning", timeout=4)
            return
        self.open_record(ref.kind, cached.record)

    def toggle_favourite(self, selected: Any) -> None:
        self.app.run_worker(self._toggle_favourite(selected), group="favourite", exit_on_error=False)

    async def _toggle_favourite(self, selected: Any) -> None:
        who = getattr(selected, "who", None)  # a call row: its person or contact
        ref = ref_of(await self.desk.record_for(who) if isinstance(who, dict) else selected)
        if ref is None:
            self.app.notify("Choose a person or contact first", severity="warning", timeout=2)
            return
        now_favourite = self.people.toggle_favourite(ref)
        self.app.notify(f"{printable(ref.name)} {'added to' if now_favourite else 'removed from'} favourites (F8)", timeout=3)

    def show_people(self) -> None:
        self.app.push_screen(PeopleAtHandScreen(self.people, self))

    def show_desk(self) -> None:
        from corpdir.tui.screens.desk_view import DeskView

        self.app.push_screen(DeskView(self))


async def new_contact_form(app: Any, number: str, name: str = "") -> None:
    """The contact form, pre-filled from the session's draft: the number, the name the
    phone system sent, the folder."""
    # Imported on first use: the form modules cost 300-400 ms of imports, which the app's
    # start does not need.
    from corpdir.tui.forms.specs import contact_form
    from corpdir.tui.forms.writes import open_form

    draft = await app.desk_phone.session.contact_draft(number, name)
    base = contact_form(None, draft.folder)
    spec = replace(base, initial={**base.initial, "phoneNum": draft.number, **({"fullname": draft.name} if draft.name else {})})

    def saved(contact: Any) -> None:
        app.notify(f"Saved {printable(contact.fullname)} as a new contact", timeout=3)

    open_form(app.screen, spec, None, app.service.contacts.create, saved)
