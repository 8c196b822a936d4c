"""The desk's telephone inside the TUI: runs the call feeds, keeps the calls that are
ringing (the pop-up shows them over whatever screen is open), records the desk's finished
calls, and carries out what the user chooses on a card (open, call back, copy, message,
save as contact, dismiss).

A feed's event reaches the screen in one trip to the cache's thread (who is calling, from
the cache only) and one repaint: nothing waits for the network in between.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from corpdir.calls.events import CallEvent, CallState, log
from corpdir.service.calls import CallDesk, Caller
from corpdir.text import printable
from corpdir.tui.widgets.ring_card import RingCard
from corpdir.tui.widgets.ring_stack import RingStack

if TYPE_CHECKING:
    from textual.screen import Screen

    from corpdir.calls.hub import CallHub
    from corpdir.calls.recorder import CallRecorder
    from corpdir.config import CallsConfig
    from corpdir.tui.app import CorpdirApp

_NOT_ID = re.compile(r"[^A-Za-z0-9_-]")
KEPT = 8  # rings kept (the stack shows the newest three: ring_stack.MAX_SHOWN)


@dataclass(frozen=True)
class Ring:
    """One call on the pop-up: its latest event, who it is, the message taken for it."""

    uid: str  # a DOM id
    event: CallEvent
    caller: Caller
    note: str = ""


class DeskPhone:
    def __init__(self, app: CorpdirApp, settings: CallsConfig | None) -> None:
        """``settings`` None: no feeds, no ring socket, no dialer (the pop-up never shows),
        but favourites, recent people and the tel: fallback still work."""
        from corpdir.config import CallsConfig
        from corpdir.service.people_at_hand import PeopleAtHand

        self.app = app
        self.enabled = settings is not None
        self.settings = settings or CallsConfig.model_construct(feeds=[], dialer=None, ring_socket=False, recent_calls=3)
        self.desk = CallDesk(app.service)
        self.people = PeopleAtHand(app.state, app.service.settings.profile().cache_path().stem)
        self.rings: list[Ring] = []
        self.hub: CallHub | None = None
        self.recorder: CallRecorder | None = None
        self.dialer = None
        self._uids = 0
        self._events: asyncio.Queue[CallEvent] = asyncio.Queue()
        self._consumer: asyncio.Task[None] | None = None

    # -- starting and stopping ---------------------------------------------------------------
    async def start(self) -> None:
        if not self.enabled:
            return
        from corpdir.calls.dialers import build_dialer
        from corpdir.calls.feeds import build_feeds
        from corpdir.calls.hub import CallHub
        from corpdir.calls.recorder import CallRecorder, queue_path
        from corpdir.paths import data_dir

        feeds: list[Any] = build_feeds(self.settings, self.desk)
        if self.settings.ring_socket:
            from corpdir.calls.ring_socket import RingSocketFeed

            feeds.append(RingSocketFeed())
        self.dialer = build_dialer(self.settings.dialer)
        if any(f.records for f in feeds) and not self.app.read_only:
            self.recorder = CallRecorder(self.desk, queue_path(self.app.service.settings.profile().cache_path(), data_dir()))
            self.recorder.start()
        self._consumer = asyncio.create_task(self._consume(), name="desk-phone-events")
        self.hub = CallHub(feeds, self.on_event, self.on_status)
        self.hub.start()
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)
        self.show()  # the first screen's (hidden) stack, before any call
        self.app.run_worker(self.desk.ready(), group="calls-by-caller", exit_on_error=False)  # before the first ring

    async def stop(self) -> None:
        if self.hub is not None:
            await self.hub.stop()
        if self._consumer is not None:
            self._consumer.cancel()
            await asyncio.gather(self._consumer, return_exceptions=True)
        if self.recorder is not None:
            await self.recorder.stop()

    def status_text(self) -> str:
        return self.hub.summary() if self.hub is not None else ""

    def on_status(self) -> None:
        from corpdir.tui.widgets.status_bar import StatusBar

        for bar in self.app.screen.query(StatusBar):
            bar.refresh_text()

    # -- events --------------------------------------------------------------------------------
    def on_event(self, event: CallEvent) -> None:
        """From a feed, on the app's loop. Events are taken one at a time, in order: a
        call's end never overtakes its ringing while the caller is being looked up."""
        self._events.put_nowait(event)

    async def _consume(self) -> None:
        while True:
            event = await self._events.get()
            try:
                await self._arrived(event)
            except Exception:  # noqa: BLE001 - one bad event must not stop the pop-up
                log.exception("call event %s could not be shown", event)

    async def _arrived(self, event: CallEvent) -> None:
        known = self._find(event.key)
        caller = known.caller if known is not None and (known.caller.number == event.number or not event.number) else \
            await self.desk.caller(event.number, self.settings.recent_calls)
        if known is not None:
            ring = replace(known, event=event, caller=caller)
            self.rings = [ring if r.uid == known.uid else r for r in self.rings]
        else:
            self._uids += 1
            ring = Ring(f"{_NOT_ID.sub('_', event.key)[:40]}-{self._uids}", event, caller)
            self.rings = [ring, *self.rings][:KEPT]
        self.show()
        if event.state is CallState.ENDED and event.records and self.recorder is not None:
            self.recorder.record(event, ring.note)
            self.recorder.kick()

    def _find(self, key: str) -> Ring | None:
        return next((r for r in self.rings if r.event.key == key), None)

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
            stack.show(self.rings)
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
        ring = self._find(message.ring.event.key) or message.ring
        getattr(self, f"_{message.action}")(ring)

    def _dismiss(self, ring: Ring) -> None:
        self.rings = [r for r in self.rings if r.uid != ring.uid]
        self.show()

    def _copy(self, ring: Ring) -> None:
        if not ring.event.number:
            self.app.notify("The caller's number was withheld", severity="warning", timeout=3)
            return
        self.app.copy_to_clipboard(ring.event.number)
        self.app.notify(f"Copied {ring.caller.formatted}", timeout=2)

    def _open(self, ring: Ring) -> None:
        if ring.caller.known:
            self.open_record(ring.caller.kind, ring.caller.record)  # type: ignore[arg-type]

    # -- people: open, favourites, recently viewed ---------------------------------------------------
    def open_record(self, kind: str, record: Any) -> None:
        """A person's or contact's details full screen; remembered as recently viewed."""
        from corpdir.service.people_at_hand import ref_of
        from corpdir.tui.screens.detail_screen import DetailScreen

        if kind == "user":
            from corpdir.tui.widgets.user_detail import UserDetail

            self.app.push_screen(DetailScreen(UserDetail(self.app.service, user=record)))
        else:
            from corpdir.tui.widgets.contact_detail import ContactDetail

            self.app.push_screen(DetailScreen(ContactDetail(self.app.service, record)))
        if (ref := ref_of(record)) is not None:
            self.people.viewed(ref)

    def open_ref(self, ref: Any) -> None:
        self.app.run_worker(self._open_ref(ref), group="open-person", exit_on_error=False)

    async def _open_ref(self, ref: Any) -> None:
        cached = await (self.app.service.user(ref.id) if ref.kind == "user" else self.app.service.contact(ref.id))
        if cached is None:
            self.app.notify(f"{printable(ref.name)} is no longer in the directory cache", severity="warning", timeout=4)
            return
        self.open_record(ref.kind, cached.record)

    def toggle_favourite(self, selected: Any) -> None:
        self.app.run_worker(self._toggle_favourite(selected), group="favourite", exit_on_error=False)

    async def _toggle_favourite(self, selected: Any) -> None:
        from corpdir.service.people_at_hand import ref_of

        who = getattr(selected, "who", None)  # a call row: its person or contact
        ref = ref_of(await self.desk.record_for(who) if isinstance(who, dict) else selected)
        if ref is None:
            self.app.notify("Choose a person or contact first", severity="warning", timeout=2)
            return
        now_favourite = self.people.toggle_favourite(ref)
        self.app.notify(f"{printable(ref.name)} {'added to' if now_favourite else 'removed from'} favourites (F8)", timeout=3)

    def show_people(self) -> None:
        from corpdir.tui.screens.people_at_hand import PeopleAtHandScreen

        self.app.push_screen(PeopleAtHandScreen(self.people, self))

    def _call_back(self, ring: Ring) -> None:
        self.dial(ring.event.number)

    def dial(self, number: str) -> None:
        """Through the configured dialer; with none, a tel: link to click and the number copied."""
        from corpdir.calls.dialers import tel_uri

        if not number:
            self.app.notify("No number to call", severity="warning", timeout=3)
            return
        if self.dialer is None:
            self.app.copy_to_clipboard(number)
            self.app.notify(f"No dialer configured: copied the number. {tel_uri(number)}", timeout=6)
            return
        self.app.run_worker(self._dial(number), group="dial", exit_on_error=False)

    async def _dial(self, number: str) -> None:
        """Told as dialled (the digits the phone gets: '０３－１２３４' is '031234')."""
        from corpdir.calls.dialers import DialFailed, dial_string

        dialled = dial_string(number)
        try:
            await self.dialer.dial(number)  # type: ignore[union-attr]
        except DialFailed as exc:
            self.app.notify(f"Could not call {dialled}: {exc}", severity="error", timeout=8)
            return
        self.app.notify(f"Calling {dialled} via {self.dialer.name}", timeout=4)  # type: ignore[union-attr]

    def _take_message(self, ring: Ring) -> None:
        from corpdir.tui.screens.take_message import TakeMessage

        def taken(note: str | None) -> None:
            if note is None:
                return
            self.rings = [replace(r, note=note) if r.uid == ring.uid else r for r in self.rings]
            self.show()
            if self.recorder is not None and ring.event.records:
                self.app.run_worker(self.recorder.set_note(ring.event.key, note), group="call-note", exit_on_error=False)

        self.app.push_screen(TakeMessage(ring.caller.name or ring.caller.formatted, ring.note), taken)

    def _save_contact(self, ring: Ring) -> None:
        self.app.run_worker(self._new_contact(ring.event.number, ring.event.display_name), group="save-contact",
                            exit_on_error=False)

    async def _new_contact(self, number: str, name: str) -> None:
        await new_contact_form(self.app, number, name)


async def new_contact_form(app: Any, number: str, name: str = "") -> None:
    """The contact form, pre-filled with the number (and the name the phone system sent),
    in the user's first personal folder, else the first shared one."""
    from corpdir.tui.forms.specs import contact_form
    from corpdir.tui.forms.writes import open_form

    service = app.service
    personal = await service.personal_folders()
    folders = await service.folders()
    folder = (("PERSONAL", personal[0].folderNum) if personal else
              (folders[0].folderId.directory, folders[0].folderId.folderNum) if folders else None)
    base = contact_form(None, folder)
    spec = replace(base, initial={**base.initial, "phoneNum": number, **({"fullname": name} if name else {})})

    def saved(contact: Any) -> None:
        app.notify(f"Saved {printable(contact.fullname)} as a new contact", timeout=3)

    open_form(app.screen, spec, None, service.create_contact, saved)
