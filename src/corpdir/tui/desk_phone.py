"""The desk's telephone inside the TUI: a thin controller over the call session
(:mod:`corpdir.calls.session`, which runs the feeds, keeps the calls, records and dials).

It turns what the session keeps into the pop-up (a :class:`RingStack` on whatever screen
is open) and the keys of a card into the session's calls, by :attr:`DeskPhone.actions`;
it also opens people (full screen, remembered as recently viewed) and keeps favourites,
takes messages for people (e-mailed by :mod:`corpdir.calls.messages`, listed on F6) and
sets their whereabouts (:mod:`corpdir.service.whereabouts`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from corpdir.calls.transfer import ANNOUNCED, BLIND
from corpdir.paths import data_dir
from corpdir.service.people_at_hand import PeopleAtHand, PersonRef, ref_of
from corpdir.text import printable
from corpdir.tui.busy_lamps import BusyLamps

if TYPE_CHECKING:
    from textual.screen import Screen

    from corpdir.calls.messages.courier import MessageCourier
    from corpdir.calls.session import CallSession, Ring
    from corpdir.service.calls import CallDesk
    from corpdir.service.whereabouts import Whereabouts
    from corpdir.tui.screens.message_slip import SlipDraft
    from corpdir.tui.widgets.ring_card import RingCard
    from corpdir.tui.widgets.ring_stack import RingStack

    from corpdir.config import CallsConfig
    from corpdir.config.messages import MessagesConfig, WhereaboutsConfig
    from corpdir.tui.app import CorpdirApp


class DeskPhone:
    def __init__(self, app: CorpdirApp, settings: CallsConfig | None, messages: MessagesConfig | None = None,
                 whereabouts: WhereaboutsConfig | None = None) -> None:
        """``settings`` None: no feeds, no ring socket, no dialer (the pop-up never shows),
        but favourites, recent people and the tel: fallback still work. A kiosk records nothing.

        The call session, the message courier and the whereabouts are built on first use
        (:meth:`start`, after the first rows, or a key that needs them): their modules cost
        ~20 ms of the app's start (docs/performance.md, "TUI start"). Nothing rings before
        :meth:`start`: the feeds and the ring socket are opened there."""
        self.app = app
        self._cache = app.service.settings.profile().cache_path()
        self.people = PeopleAtHand(app.state, self._cache.stem)
        self.configure(settings, messages, whereabouts)
        self.actions: dict[str, Callable[[Ring], None]] = {  # RingCard.KEYS' actions
            "open": self._open, "call_back": self._call_back, "copy": self._copy,
            "take_message": self._take_message, "save_contact": self._save_contact,
            "dismiss": lambda ring: self.session.dismiss(ring), "dismiss_all": lambda ring: self.session.dismiss_all(ring),
            "answer": self._answer, "hang_up": self._hang_up,
            "transfer": lambda ring: self._put_through(ring, BLIND), "announce": lambda ring: self._put_through(ring, ANNOUNCED),
        }
        self.lamps = BusyLamps(app, settings)  # [calls.presence]: the desk view's and the transfer picker's lamps

    def configure(self, settings: CallsConfig | None, messages: MessagesConfig | None = None,
                  whereabouts: WhereaboutsConfig | None = None) -> None:
        """The settings, before :meth:`start` (an app started on the first screen's settings
        is given the checked ones after its first rows; busy lamps are never among those
        given late: corpdir.config.first)."""
        self.settings = settings
        self._messages = messages
        self._places = whereabouts
        self.__dict__.pop("messages", None)
        self.__dict__.pop("places", None)

    @cached_property
    def messages(self) -> MessagesConfig:
        from corpdir.config.messages import MessagesConfig

        return self._messages or MessagesConfig()

    @cached_property
    def places(self) -> WhereaboutsConfig:
        from corpdir.config.messages import WhereaboutsConfig

        return self._places or WhereaboutsConfig()

    @cached_property
    def desk(self) -> CallDesk:
        """The Calls screen's too: calls to return, who a call was."""
        from corpdir.service.calls import CallDesk

        return CallDesk(self.app.service)

    @cached_property
    def session(self) -> CallSession:
        self.app.settings_checked()  # a key typed before the first screen's check: [calls] as checked
        from corpdir.calls.recorder import queue_path
        from corpdir.calls.session import CallSession

        return CallSession(self.desk, self.settings, self, queue=None if self.app.read_only else queue_path(self._cache, data_dir()))

    @cached_property
    def courier(self) -> MessageCourier:
        self.app.settings_checked()  # as the session's: [messages] as checked
        from corpdir.calls.messages.courier import MessageCourier
        from corpdir.calls.messages.slips import SlipBook, slips_path

        return MessageCourier(SlipBook(slips_path(self._cache, data_dir()), on_change=self._slips_changed), self.messages)

    @cached_property
    def whereabouts(self) -> Whereabouts:
        self.app.settings_checked()  # as the session's: [whereabouts] as checked
        from corpdir.service.whereabouts import Whereabouts, whereabouts_path

        return Whereabouts(self.app.service.people, whereabouts_path(self._cache, data_dir()),
                           send_every=self.places.send_every)

    async def start(self) -> None:
        if not self.app.read_only:
            self.courier.start()  # slips an earlier run could not deliver go now
        if not self.session.enabled:
            return
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)
        self.show()  # the first screen's (hidden) stack, before any call
        self.lamps.start()
        await self.session.start()

    async def stop(self) -> None:
        """What was started: an app closed before its first rows built no session."""
        if "courier" in self.__dict__:
            await self.courier.stop()
        await self.lamps.stop()
        if "session" in self.__dict__:
            await self.session.stop()

    def status_text(self) -> str:
        """The feeds' state ('' until :meth:`start` builds the session and opens them)."""
        return self.session.status_text() if "session" in self.__dict__ else ""

    # -- what the session tells (SessionObserver) ------------------------------------------------
    def rings_changed(self, rings: tuple[Ring, ...]) -> None:
        self.show()

    def feeds_changed(self) -> None:
        from corpdir.tui.widgets.status_bar import StatusBar

        for bar in self.app.screen.query(StatusBar):
            bar.refresh_text()

    # -- the pop-up ----------------------------------------------------------------------------
    def _stack(self, screen: Screen | None = None) -> RingStack:
        """The screen's stack; every screen gets its own (empty, hidden) when it is first
        shown, so a ring fills cards that already exist."""
        from corpdir.tui.widgets.ring_stack import RingStack

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
        from corpdir.tui.widgets.ring_stack import RingStack

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
        from corpdir.calls.session import CallControlFailed

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
        """The message form for the call: for the person the card shows (else chosen in
        the form), from the caller as the card names them."""
        from corpdir.tui.screens.message_slip import MessageSlipForm

        def taken(draft: SlipDraft | None) -> None:
            if draft is not None:
                self.app.run_worker(self._send_slip(draft, ring), group="call-note", exit_on_error=False)

        recipient = ring.caller.record if ring.caller.kind == "user" else None
        caller = "" if ring.caller.withheld else (ring.caller.name or ring.event.display_name)
        self.app.push_screen(MessageSlipForm(self.app.service, recipient=recipient, caller_name=caller,
                                             caller_number="" if ring.caller.withheld else ring.event.number,
                                             mails=self.messages.enabled, record_says=self.session.message_goes(ring)), taken)

    async def _send_slip(self, draft: SlipDraft, ring: Ring | None) -> None:
        """Kept, e-mailed, and (for a call of the desk's) noted on the call record."""
        from corpdir.calls.messages.slips import new_slip, record_note
        from corpdir.calls.recorder import NOTE_MAX

        who = draft.recipient
        slip = await self.courier.take(new_slip(
            for_name=who.fullname or "", for_email=who.email1 or "", for_login=who.loginId or "",
            caller_name=draft.caller_name, caller_number=draft.caller_number, outcome=draft.outcome, text=draft.text,
            call_key=ring.event.key if ring is not None and ring.event.records else None))
        if ring is not None:
            await self.session.take_message(ring, record_note(slip, NOTE_MAX))
        self.app.notify(f"Message for {printable(slip.for_name)}: {slip.status}",
                        severity="information" if slip.state.delivered else "warning", timeout=5)

    def show_slips(self) -> None:
        from corpdir.tui.screens.slips import SlipsScreen

        self.app.push_screen(SlipsScreen(self.courier))

    def _slips_changed(self) -> None:
        """From the loop or the courier's SMTP thread: the slips list on show is refilled."""
        from corpdir.tui.screens.slips import SlipsScreen

        def refill() -> None:
            for screen in self.app.screen_stack:
                if isinstance(screen, SlipsScreen):
                    screen.fill()

        loop = getattr(self.app, "_loop", None)
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(refill)

    # -- whereabouts -------------------------------------------------------------------------------
    def set_whereabouts(self, person: Any) -> None:
        """``w`` on a person: the picker, then kept and sent with the minute's other changes."""
        from corpdir.tui.screens.whereabouts_picker import WhereaboutsPicker

        if getattr(person, "userId", None) is None or not hasattr(person, "loginId"):
            self.app.notify("Choose a person first", severity="warning", timeout=2)
            return
        if not person.loginId:
            demo = " (the embedded demo is the reception's key: docs/calls.md, Whereabouts)" if self.app.service.is_demo else ""
            self.app.notify("Whereabouts cannot be set with this key: it needs user-management rights (the service "
                            f"names a person's whereabouts by login ID, which this key cannot see){demo}",
                            severity="warning", timeout=8)
            return

        def chosen(choice: Any) -> None:
            if choice is None:
                return
            place, note = choice
            now = self.whereabouts.set(person.loginId, place.id, place.name, note)
            self._repaint_people()
            self.app.notify(f"{printable(person.fullname or '')}: {now.destination_name} (sent within a minute)", timeout=3)
            self.whereabouts.send_soon(self._whereabouts_sent)

        self.app.push_screen(WhereaboutsPicker(person.fullname or "", list(self.places.destinations),
                                               self.whereabouts.of(person.loginId)), chosen)

    def _repaint_people(self) -> None:
        from corpdir.tui.widgets.user_detail import UserDetail

        for screen in self.app.screen_stack:
            for detail in screen.query(UserDetail):
                detail.repaint()

    def _whereabouts_sent(self, registered: int) -> None:
        self._repaint_people()
        if self.whereabouts.problem:
            self.app.notify(f"Whereabouts not sent: {self.whereabouts.problem}", severity="warning", timeout=6)
        elif self.whereabouts.unsent:  # changed while the request was out
            self.whereabouts.send_soon(self._whereabouts_sent)

    def _save_contact(self, ring: Ring) -> None:
        self.app.run_worker(new_contact_form(self.app, ring.event.number, ring.event.display_name), group="save-contact",
                            exit_on_error=False)

    # -- dialing ---------------------------------------------------------------------------------
    def dial(self, number: str) -> None:
        """Through the configured dialer; with none, a tel: link to click and the number copied."""
        from corpdir.calls.dialers import tel_uri

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
        from corpdir.calls.dialers import DialFailed, dial_string

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
        self.app.push_screen(DetailScreen(detail, record))
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

    def _put_through(self, ring: Ring, how: str) -> None:
        from corpdir.tui.transfer_flow import put_through  # on a card's key, not at the start

        put_through(self, ring, how)

    def show_people(self) -> None:
        from corpdir.tui.screens.people_at_hand import PeopleAtHandScreen  # when F8 is first pressed, not at the start

        self.app.push_screen(PeopleAtHandScreen(self.people, self))

    def show_desk(self) -> None:
        from corpdir.tui.screens.desk_view import DeskView

        self.app.push_screen(DeskView(self))


async def new_contact_form(app: Any, number: str, name: str = "", then: Callable[[Any], None] | None = None) -> None:
    """The contact form, pre-filled from the session's draft: the number, the name the
    phone system sent, the folder. ``then``: called with the contact once it is saved."""
    # Imported on first use: the form modules cost 300-400 ms of imports, which the app's
    # start does not need.
    from corpdir.tui.forms.specs import contact_form
    from corpdir.tui.forms.writes import open_form

    draft = await app.desk_phone.session.contact_draft(number, name)
    base = contact_form(None, draft.folder)
    spec = replace(base, initial={**base.initial, "phoneNum": draft.number, **({"fullname": draft.name} if draft.name else {})})

    def saved(contact: Any) -> None:
        app.notify(f"Saved {printable(contact.fullname)} as a new contact", timeout=3)
        if then is not None:
            then(contact)

    open_form(app.screen, spec, None, app.service.contacts.create, saved)
