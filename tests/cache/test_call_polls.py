"""The call histories' poll (H1/H4 every few minutes): a poll that brings nothing new
writes nothing, so another process on the same cache (a second TUI, `corpdir ring`, the
gateway) does not rebuild its calls by caller after every poll; a new or edited call is
written and counted."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from corpdir.cache.store import CacheStore

START = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


def _history(n: int) -> list[dict]:
    """``n`` incoming calls as H1 returns them, newest first."""
    return [{"incomingCallHistoryId": i, "fromNum": f"03-5700-{i:04d}", "answered": i % 3 != 0, "duration": 30 + i,
             "calledAt": (START + timedelta(minutes=i)).isoformat().replace("+00:00", "Z")}
            for i in range(n, 0, -1)]


def test_a_poll_with_nothing_new_writes_nothing_and_an_edit_or_a_new_call_is_kept(tmp_path):
    path = tmp_path / "cache.sqlite3"
    poller, other = CacheStore(path), CacheStore(path)
    try:
        history = _history(300)
        first = poller.put_calls("incoming", history)
        assert (first.added, first.changed) == (300, 0)
        seen = other.calls_version()

        again = poller.put_calls("incoming", [dict(c) for c in history])  # the same history, read again
        assert (again.added, again.changed) == (0, 0)
        assert other.calls_version() == seen  # nothing committed: the other process keeps what it built

        edited = [dict(c) for c in history]
        edited[150] = {**edited[150], "note": "折り返し希望"}  # a message added on another desk (H3)
        newest = _history(301)[0]
        changes = poller.put_calls("incoming", [newest, *edited])
        assert (changes.added, changes.changed) == (1, 1)
        assert other.calls_version() != seen
        calls = {c.incomingCallHistoryId: c for c in other.calls("incoming")}
        assert calls[edited[150]["incomingCallHistoryId"]].note == "折り返し希望"
        assert calls[301].fromNum == "03-5700-0301" and len(calls) == 301
    finally:
        poller.close()
        other.close()
