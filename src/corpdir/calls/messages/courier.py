"""Gets slips to their person: each new slip is e-mailed at once, one that could not go is
tried again every ``retry_every`` seconds and whenever the desk asks, and its state is on
disk at every step (:mod:`.slips`), so a slip is delivered once, also across a crash:

- before the mail server may hold the mail, the slip is ``sending`` on disk; a run that
  dies then leaves it ``uncertain`` for the next run, which does not send it again on its
  own (SMTP cannot be asked whether a mail arrived): the desk sees "maybe delivered" and
  may resend;
- a slip that failed before that point is ``queued`` and is sent by the next run.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import replace
from typing import Callable

from corpdir.calls.events import log, now
from corpdir.calls.messages.slips import Slip, SlipBook, SlipState
from corpdir.config.messages import MessagesConfig

NO_SERVER = "no mail server is set ([messages] smtp_host in the config file)"


class MessageCourier:
    def __init__(self, book: SlipBook, settings: MessagesConfig, *, tls: ssl.SSLContext | None = None,
                 hand: Callable[..., None] | None = None) -> None:
        """``tls``: the context the mail server's certificate is checked with (default: the
        system's CAs); ``hand``: what hands a mail over (default: SMTP,
        :func:`corpdir.calls.messages.mail.hand_over`)."""
        self.book = book
        self.settings = settings
        self.tls = tls
        self._hand = hand
        self._lock = asyncio.Lock()  # one delivery at a time: a slip is never handed over twice at once
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def take(self, slip: Slip) -> Slip:
        """``slip`` kept (on disk), then e-mailed; returns it as it stands after the first try."""
        if not self.settings.enabled:
            slip = replace(slip, state=SlipState.HELD, error=NO_SERVER)
        elif not slip.for_email:
            slip = replace(slip, state=SlipState.HELD, error=f"{slip.for_name or 'the recipient'} has no e-mail address")
        self.book.put(slip)
        if slip.state is SlipState.QUEUED:
            await self.deliver(slip.id)
        return self.book.get(slip.id) or slip

    async def resend(self, slip_id: str) -> Slip | None:
        """The desk asked: a held, uncertain or queued slip goes now (a delivered one is left)."""
        slip = self.book.get(slip_id)
        if slip is None or slip.state is SlipState.SENT:
            return slip
        if not self.settings.enabled:
            self.book.put(replace(slip, state=SlipState.HELD, error=NO_SERVER))
        elif not slip.for_email:
            self.book.put(replace(slip, state=SlipState.HELD, error=f"{slip.for_name or 'the recipient'} has no e-mail address"))
        else:
            self.book.put(replace(slip, state=SlipState.QUEUED))
            await self.deliver(slip_id)
        return self.book.get(slip_id)

    async def deliver(self, slip_id: str) -> None:
        # smtplib and email are imported with the first delivery: a desk's start never waits for them
        from corpdir.calls.messages.mail import MaybeHandedOver, NotHandedOver, compose, hand_over

        async with self._lock:
            slip = self.book.get(slip_id)
            if slip is None or slip.state is not SlipState.QUEUED:
                return
            tried = replace(slip, attempts=slip.attempts + 1)

            def before_data() -> None:  # in the SMTP thread: on disk before DATA
                self.book.put(replace(tried, state=SlipState.SENDING))

            try:
                await asyncio.to_thread(self._hand or hand_over, compose(slip, self.settings), self.settings, before_data, self.tls)
            except NotHandedOver as exc:
                state = SlipState.HELD if exc.lasting else SlipState.QUEUED
                self.book.put(replace(tried, state=state, error=str(exc)))
                log.warning("message slip %s for %s not delivered: %s", slip.id, slip.for_email, exc)
            except MaybeHandedOver as exc:
                self.book.put(replace(tried, state=SlipState.UNCERTAIN, error=str(exc)))
                log.warning("message slip %s for %s: %s", slip.id, slip.for_email, exc)
            else:
                self.book.put(replace(tried, state=SlipState.SENT, error="", sent_at=now().isoformat(timespec="seconds")))
                log.info("message slip %s e-mailed to %s", slip.id, slip.for_email)

    async def deliver_due(self) -> None:
        for slip in self.book.due():
            await self.deliver(slip.id)

    # -- running beside the desk ---------------------------------------------------------------
    def start(self) -> None:
        if self._task is None and self.settings.enabled:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="message-courier")

    def nudge(self) -> None:
        """Try the queued slips now (the desk came back online, a setting changed)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.deliver_due()
            except Exception:  # a bug must not stop the retries of the other slips
                log.exception("message delivery failed")
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), self.settings.retry_every)
            except asyncio.TimeoutError:
                pass

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
