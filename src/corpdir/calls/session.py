"""The desk's call session: what a ringing call does, without a screen.

It runs the configured feeds (the hub), keeps the calls on show (:class:`Ring`: the call's
latest event, who is calling, the message taken for it), records the desk's finished
calls (the recorder's queue, then H2), dials out, and gives "save as contact" what it
starts from. A front end watches it through :class:`SessionObserver` and asks it for
changes; the TUI's pop-up (``corpdir.tui.desk_phone``) is one. Nothing here imports
Textual (import-linter's ``calls-have-no-screen``), so the session is tested without an app.

A feed's event reaches the observer after one trip to the cache's thread (who is calling,
from the cache only): nothing waits for the network in between.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Awaitable, Callable, Protocol

from corpdir.calls.dialers import DialFailed, Dialer, build_dialer, dial_string
from corpdir.calls.events import CallEvent, CallState, log, now
from corpdir.calls.feeds import build_feeds
from corpdir.calls.hub import Answering, CallHub, Feed, HangingUp
from corpdir.calls.recorder import CallRecorder
from corpdir.calls.ring_socket import RingSocketFeed
from corpdir.calls.transfer import BLIND, abilities
from corpdir.config import CallsConfig
from corpdir.service.calls import CallDesk, Caller

KEPT = 8  # calls kept (the pop-up shows the newest three: ring_stack.MAX_SHOWN)

Identify = Callable[[str, int], Awaitable[Caller]]
"""Who a number is, with up to N of their last calls: the service's identification."""


@dataclass(frozen=True)
class Ring:
    """One call on show: its latest event, who it is, the message taken for it."""

    uid: int  # the call's while it is kept: a front end holds one card per call by it
    event: CallEvent
    caller: Caller
    note: str = ""
    answers: bool = False  # its feed can answer it (baresip's accept)
    hangs_up: bool = False  # its feed can hang it up (baresip's hangup, AMI's Hangup)
    ended_at: float | None = None  # on the session's clock, when the card learnt the call ended

    @property
    def can_answer(self) -> bool:
        return self.answers and self.event.state is CallState.RINGING

    @property
    def can_hang_up(self) -> bool:
        return self.hangs_up and self.event.state is not CallState.ENDED


class CallControlFailed(Exception):
    """Answering or hanging up did not happen (the feed cannot, or the phone refused)."""


@dataclass(frozen=True)
class ContactDraft:
    """What "save as contact" starts from: the number, the name the phone system sent, and
    the folder (the user's first personal folder, else the first shared one; None: none)."""

    number: str
    name: str
    folder: tuple[str, int] | None


class SessionObserver(Protocol):
    """What a front end hears from the session, on the session's loop."""

    def rings_changed(self, rings: tuple[Ring, ...]) -> None:
        """The calls on show changed (newest first): one arrived or moved on, was dismissed,
        or got a message."""

    def feeds_changed(self) -> None:
        """A feed connected, dropped or skipped an event (:meth:`CallSession.status_text`)."""


class CallSession:
    def __init__(self, desk: CallDesk, settings: CallsConfig | None, observer: SessionObserver, *,
                 queue: Path | None, identify: Identify | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """``settings`` None: no feeds, no ring socket, no dialer (nothing ever rings), but
        the desk's history and "save as contact" still work. ``queue`` is the recorder's
        file; None records nothing (a kiosk). ``identify`` defaults to the desk's. ``clock``
        times how long an ended call's card stays (a test moves it instead of waiting)."""
        self.desk = desk
        self.enabled = settings is not None
        self.settings = settings or CallsConfig(ring_socket=False)
        self.observer = observer
        self.queue = queue
        self.identify = identify or desk.caller
        self.clock = clock
        self._sweep: asyncio.TimerHandle | None = None
        self.dialer: Dialer | None = build_dialer(self.settings.dialer)
        self.rings: tuple[Ring, ...] = ()
        self.hub: CallHub | None = None
        self.recorder: CallRecorder | None = None
        self._uids = 0
        self._events: asyncio.Queue[CallEvent] = asyncio.Queue()
        self._consumer: asyncio.Task[None] | None = None
        self._connected_once: set[str] = set()
        self._feed_states: dict[str, str] = {}

    # -- starting and stopping ---------------------------------------------------------------
    async def start(self) -> None:
        """The feeds running and the recorder ready; returns once the desk's history by
        caller is built, so the first ring does not build it."""
        if not self.enabled:
            return
        feeds: list[Feed] = build_feeds(self.settings, self.desk)
        if self.settings.ring_socket or (self.settings.ring_socket is None and feeds):  # the desk asks for rings
            feeds.append(RingSocketFeed())
        if self.queue is not None and any(f.records for f in feeds):
            self.recorder = CallRecorder(self.desk, self.queue)
            self.recorder.start()
        self._consumer = asyncio.create_task(self._consume(), name="call-session-events")
        self.hub = CallHub(feeds, self.on_event, self._feeds_changed)
        self.hub.start()
        await self.desk.ready()

    async def stop(self) -> None:
        if self._sweep is not None:
            self._sweep.cancel()
        if self.hub is not None:
            await self.hub.stop()
        if self._consumer is not None:
            self._consumer.cancel()
            await asyncio.gather(self._consumer, return_exceptions=True)
        if self.recorder is not None:
            await self.recorder.stop()

    def status_text(self) -> str:
        return self.hub.summary() if self.hub is not None else ""

    # -- events --------------------------------------------------------------------------------
    def on_event(self, event: CallEvent) -> None:
        """From a feed, on the session's loop. Events are taken one at a time, in order: a
        call's end never overtakes its ringing while the caller is being looked up."""
        if self.recorder is not None:
            self.recorder.follow(event)  # now, not after the caller is looked up: before the feed says it is up
        self._events.put_nowait(event)

    def _feeds_changed(self) -> None:
        """A feed that connects has told the calls up now (baresip's listcalls): the
        recorder learns which of its calls from before ended while nobody listened: at the
        first connection, the calls of an earlier run; at a reconnection, for a feed that
        tells the calls up, those that ended during the drop (a feed that does not, such
        as an action URL, still reports their end: its tracker outlives the drop)."""
        if self.recorder is not None and self.hub is not None:
            for name, status in self.hub.status.items():
                was, self._feed_states[name] = self._feed_states.get(name), status.state
                tells = bool(getattr(self._feed(name), "tells_calls_up", False))
                if was == "connected" and status.state != "connected" and tells:
                    self.recorder.lost_touch(name)
                if status.state == "connected" and was != "connected" and (tells or name not in self._connected_once):
                    self._connected_once.add(name)
                    for key, _known in self.recorder.ended_while_away(name, tells_calls_up=tells):
                        self._ended_unseen(key)
        self.observer.feeds_changed()

    def _ended_unseen(self, key: str) -> None:
        """A call on show whose end nobody saw: its card says it ended, outcome unknown."""
        ring = self.ring_of(key)
        if ring is not None and ring.event.state is not CallState.ENDED:
            ended = replace(ring.event, state=CallState.ENDED, at=now(), answered=None, duration=None, rang_at=None)
            self._set(tuple(replace(r, event=ended, ended_at=self.clock()) if r.uid == ring.uid else r for r in self.rings))

    async def _consume(self) -> None:
        while True:
            event = await self._events.get()
            try:
                await self._arrived(event)
            except Exception:  # noqa: BLE001 - one bad event must not stop the session
                log.exception("call event %s could not be shown", event)

    async def _arrived(self, event: CallEvent) -> None:
        known = self.ring_of(event.key)
        caller = known.caller if known is not None and (known.caller.number == event.number or not event.number) else \
            await self.identify(event.number, self.settings.recent_calls)
        ended_at = self.clock() if event.state is CallState.ENDED else None
        if known is not None:
            ring = replace(known, event=event, caller=caller, ended_at=ended_at if known.ended_at is None else known.ended_at)
            self._set(tuple(ring if r.uid == known.uid else r for r in self.rings))
        else:
            self._uids += 1
            feed = self._feed(event.feed)
            ring = Ring(self._uids, event, caller, answers=isinstance(feed, Answering), hangs_up=isinstance(feed, HangingUp),
                        ended_at=ended_at)
            self._set((ring, *self.rings)[:KEPT])
        if event.state is CallState.ENDED and event.records and self.recorder is not None:
            self.recorder.record(event, ring.note)
            self.recorder.kick()

    def ring_of(self, key: str) -> Ring | None:
        """The call kept under a feed's call key (:attr:`CallEvent.key`), if any."""
        return next((r for r in self.rings if r.event.key == key), None)

    def _set(self, rings: tuple[Ring, ...]) -> None:
        self.rings = rings
        self.observer.rings_changed(rings)
        self._sweep_later()

    # -- ended calls leave -------------------------------------------------------------------------
    def sweep(self) -> None:
        """Ended calls whose card has stayed :attr:`CallsConfig.ended_card_seconds` leave
        the pop-up (a call that ended at 03:47 is no news at 03:50)."""
        self._sweep = None
        keep = self.settings.ended_card_seconds
        leaving = {r.uid for r in self.rings if r.ended_at is not None and self.clock() - r.ended_at >= keep}
        if leaving:
            self._set(tuple(r for r in self.rings if r.uid not in leaving))
        else:
            self._sweep_later()

    def _sweep_later(self) -> None:
        """One timer, for the card that leaves first; none while no call has ended."""
        due = [r.ended_at + self.settings.ended_card_seconds for r in self.rings if r.ended_at is not None]
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        if due:
            self._sweep = asyncio.get_running_loop().call_later(max(0.0, min(due) - self.clock()), self.sweep)

    # -- what the user does with a call --------------------------------------------------------------
    def dismiss(self, ring: Ring) -> None:
        self._set(tuple(r for r in self.rings if r.uid != ring.uid))

    def dismiss_all(self, _ring: Ring | None = None) -> None:
        """Every card closes (the card's ``D``); the calls still ringing come back with
        their next event."""
        self._set(())

    def message_goes(self, ring: Ring) -> str:
        """Where a message taken for ``ring`` goes, as the message dialog says it: a
        promise only for a call this desk records."""
        if self.recorder is None or not ring.event.records:
            source = "`corpdir ring`" if ring.event.feed == RingSocketFeed.name else ring.event.feed or "this feed"
            return f"Calls from {source} are not recorded: it stays on this card only"
        if ring.event.state is CallState.ENDED:
            return "Saved with the call record (held in the local queue while the service is away)"
        return "Saved with the call record when the call ends (held in the local queue while the service is away)"

    async def take_message(self, ring: Ring, note: str) -> None:
        """A message for the call: on show at once, and the record's note (with the record
        once the call ends, or an edit of it when it is recorded already)."""
        self._set(tuple(replace(r, note=note) if r.uid == ring.uid else r for r in self.rings))
        if self.recorder is not None and ring.event.records:
            await self.recorder.set_note(ring.event.key, note)

    async def answer(self, ring: Ring) -> None:
        """Picks the call up on the phone its feed speaks for (:class:`CallControlFailed`)."""
        feed = self._feed(ring.event.feed)
        if not isinstance(feed, Answering):
            raise CallControlFailed(f"calls from {ring.event.feed or 'this feed'} are answered on the phone")
        await self._control(feed.answer(ring.event.call_id))

    async def hang_up(self, ring: Ring) -> None:
        feed = self._feed(ring.event.feed)
        if not isinstance(feed, HangingUp):
            raise CallControlFailed(f"calls from {ring.event.feed or 'this feed'} are hung up on the phone")
        await self._control(feed.hang_up(ring.event.call_id))

    def _feed(self, name: str) -> Feed | None:
        return next((f for f in self.hub.feeds if f.name == name), None) if self.hub is not None else None

    @staticmethod
    async def _control(done: Awaitable[None]) -> None:
        try:
            await done
        except OSError as exc:  # ConnectionError, FeedRefused: the phone refused or is not reachable
            raise CallControlFailed(str(exc)) from None

    # -- putting the call through (corpdir.calls.transfer) --------------------------------------
    def transfers(self, ring: Ring) -> frozenset[str]:
        """The kinds of transfer the call's feed offers (BLIND, ANNOUNCED): the card offers only those."""
        if ring.event.state is CallState.ENDED:
            return frozenset()
        return abilities(self._feed(ring.event.feed), answered=ring.event.state is CallState.ANSWERED)

    async def transfer(self, ring: Ring, number: str, kind: str = BLIND) -> None:
        """BLIND: the caller goes to ``number`` at once. ANNOUNCED: the caller is held and
        ``number`` called; then :meth:`complete_transfer` or :meth:`return_to_caller`."""
        if kind not in self.transfers(ring):
            raise CallControlFailed(f"calls from {ring.event.feed or 'this feed'} cannot be put through ({kind})")
        if not (digits := dial_string(number)):
            raise CallControlFailed("no number to put the call through to")
        feed = self._feed(ring.event.feed)
        await self._control((feed.transfer if kind == BLIND else feed.consult)(ring.event.call_id, digits))  # type: ignore[union-attr]

    async def complete_transfer(self, ring: Ring, number: str) -> None:
        await self._control(self._feed(ring.event.feed).complete(ring.event.call_id, dial_string(number)))  # type: ignore[union-attr]

    async def return_to_caller(self, ring: Ring) -> None:
        await self._control(self._feed(ring.event.feed).return_to_caller(ring.event.call_id))  # type: ignore[union-attr]

    async def target_gone(self, ring: Ring) -> str:
        """Returns, with the reason, once the target of an announced transfer has declined,
        not answered or hung up (the caller is then back with the desk)."""
        return await self._feed(ring.event.feed).target_gone(ring.event.call_id)  # type: ignore[union-attr]

    async def dial(self, number: str) -> str:
        """Through the configured dialer (:attr:`dialer`, not None); returns what was dialled,
        the digits the phone got ('０３－１２３４' is '031234'). :class:`DialFailed` when the
        phone or PBX refused or could not be reached."""
        if self.dialer is None:
            raise DialFailed("no dialer configured")
        await self.dialer.dial(number)
        return dial_string(number)

    async def contact_draft(self, number: str, name: str = "") -> ContactDraft:
        return ContactDraft(number, name, await self.desk.new_contact_folder())
