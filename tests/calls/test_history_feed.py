"""The service's own history as a feed: polling H1 on the reference server (rate limit on,
per API key), a record another client of the same user writes (H2) pops up at the next
poll, and the polling never meets a 429 while the other client also spends the bucket."""

from __future__ import annotations

from datetime import datetime, timezone

from call_helpers import card_text, cards, desk_app, feed_ready
from corpdir.calls.feeds.history import polling_interval
from corpdir.server.settings import RateLimitSettings
from service_fixtures import make_server, make_service
from tui_helpers import wait_for


def test_the_interval_is_raised_to_fit_the_rate_budget():
    assert polling_interval(0.1, (10.0, 60.0)) == 2.0  # 5 % of 10 tokens/s
    assert polling_interval(30.0, (10.0, 60.0)) == 30.0
    assert polling_interval(5.0, None) == 5.0  # the budget is learnt from the first answer


async def test_a_record_written_elsewhere_pops_up_at_the_next_poll_without_a_429(demo_user):
    server = make_server(rate_limit=RateLimitSettings(enabled=True, burst=60, rate=20.0))  # room for the sync and the other client
    desk, other = make_service(server), make_service(server)
    await desk.sync()
    app = desk_app(desk, feeds=[{"kind": "history", "name": "history", "interval": 0.2}])
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            assert await feed_ready(pilot, "history"), app.desk_phone.session.hub.status
            feed = app.desk_phone.session.hub.feeds[0]
            assert feed.interval == 1.0  # 0.2 s asked; 5 % of 20 tokens/s allows one poll a second
            for _ in range(20):  # another client of the same user spends the same bucket
                await other.refresh_calls("incoming", limit=20)
            await other.create_call("incoming", {"fromNum": demo_user.phoneNum, "answered": False, "duration": 0,
                                                 "calledAt": datetime.now(timezone.utc).isoformat()})
            written_at_poll = feed.polls
            assert await wait_for(pilot, lambda: demo_user.fullname in card_text(app), tries=1000)
            assert feed.polls - written_at_poll <= 2  # the poll under way, or the next one
            [card] = cards(app)
            assert "missed" in card_text(app) and card.ring.event.records is False  # never written back
            assert desk.rate_limit.rate_limited == 0
            assert other.rate_limit.rate_limited == 0
    finally:
        await desk.close()
        await other.close()
