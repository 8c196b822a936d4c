"""The service's own incoming history (H1), polled: the one feed that works with any
deployment, however the desk's phone is connected (the PBX or a phone app writes the
records; corpdir shows each new one as it appears).

H1 has no "newer than" filter: each poll reads the newest page (newest first, 20 records)
and emits the records it has not seen. The first poll only learns where the history
stands. Latency is one interval (10 s by default) plus one request. The interval is raised
so polling uses at most :data:`BUDGET_SHARE` of the bucket's replenish rate, and a poll
waits while the bucket is below a quarter full, so the desk's own work always comes first
and the poll never meets a 429."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from corpdir.calls.events import CallEvent, CallState, now

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink
    from corpdir.config import HistoryFeedConfig
    from corpdir.service.calls import CallDesk

BUDGET_SHARE = 0.05  # of the replenish rate: 10 tokens/s -> at most one poll every 2 s


def polling_interval(configured: float, budget: tuple[float, float] | None) -> float:
    if budget is None:
        return configured
    rate, _capacity = budget
    return max(configured, 1.0 / (BUDGET_SHARE * rate)) if rate > 0 else configured


class HistoryFeed:
    def __init__(self, config: HistoryFeedConfig, desk: CallDesk, *, sleep=asyncio.sleep) -> None:  # noqa: ANN001
        self.config = config
        self.desk = desk
        self.name = config.name
        self.records = False  # the records are already on the service
        self.sleep = sleep
        self.last_id: int | None = None
        self.interval = config.interval
        self.polls = 0  # polls started (the tests count intervals by them)

    async def poll(self, link: FeedLink) -> None:
        self.polls += 1
        records = await self.desk.newest_incoming()
        newest = max((r.incomingCallHistoryId for r in records), default=self.last_id or 0)
        if self.last_id is not None:
            for record in sorted(records, key=lambda r: r.incomingCallHistoryId):
                if record.incomingCallHistoryId > self.last_id:
                    link.emit(CallEvent("", f"H1-{record.incomingCallHistoryId}", CallState.ENDED, record.fromNum or "",
                                        (record.fromNumContact.displayName if record.fromNumContact else "") or "",
                                        at=record.calledAt or now(), answered=bool(record.answered),
                                        duration=record.duration or 0))
        self.last_id = max(newest, self.last_id or 0)

    async def run(self, link: FeedLink) -> None:
        if not self.desk.offers_history():
            raise ConnectionError("this service has no call history (H1)")
        await self.poll(link)
        link.connected()
        while True:
            self.interval = polling_interval(self.config.interval, self.desk.rate_budget())
            await self.sleep(self.interval)
            budget = self.desk.rate_budget()
            tokens = self.desk.tokens_left()
            if budget is not None and tokens is not None and tokens < budget[1] / 4:
                continue  # the desk is busy: poll next time
            await self.poll(link)
