"""Every date-time the service accepts is read back by the project's client as the same
instant: a year-120 time stored as '120-01-09T...' would not be ISO 8601, and every
later `corpdir sync` of that record would fail.

The service keeps times in UTC to the millisecond (docs/server.md), so "the same" is the
instant sent with its sub-millisecond digits dropped.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta, timezone

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpdir.client import DirectoryClient
from tests.server.conftest import ADMIN_KEY, client_for

OFFSETS = st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))
# the whole calendar, with an emphasis on its ends and on years with fewer than four digits
DATE_TIMES = st.one_of(
    st.datetimes(timezones=OFFSETS),
    st.datetimes(max_value=datetime(1001, 1, 2), timezones=OFFSETS),
    st.datetimes(min_value=datetime(9998, 12, 30), timezones=OFFSETS),
)
STORED = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")


def _text(value: datetime) -> str:
    """ISO 8601 as a client in another language would write it: always four year digits."""
    return f"{value.year:04d}" + value.isoformat()[value.isoformat().index("-"):]


async def _round_trip(app, value: datetime) -> None:
    async with client_for(app) as raw:
        r = await raw.post("/me/incoming-calls", json={"answered": True, "calledAt": _text(value)})
    if r.status_code != 201:
        assert r.status_code == 400, r.text
        assert r.json()["error"]["details"][0]["field"] == "calledAt"
        utc = None
        try:
            utc = value.astimezone(timezone.utc)
        except (OverflowError, ValueError):
            pass
        assert utc is None or utc.year < 1000, f"{_text(value)} refused although it is in range"
        return
    assert STORED.fullmatch(r.json()["calledAt"]), r.json()["calledAt"]
    transport = httpx.ASGITransport(app)
    async with DirectoryClient(base_url="http://127.0.0.1/v1", api_key=ADMIN_KEY, transport=transport) as client:
        record = await client.edit_incoming_call(r.json()["incomingCallHistoryId"], {"note": "read back"})
    expected = value.replace(microsecond=value.microsecond // 1000 * 1000)
    assert record.calledAt == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=DATE_TIMES)
def test_every_accepted_date_time_is_read_back_by_the_client_unchanged(app, value):
    asyncio.run(_round_trip(app, value))
