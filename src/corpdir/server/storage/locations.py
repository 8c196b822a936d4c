"""Bulk writes keyed by people: destinations (U11) and location spots (L1)."""

from __future__ import annotations

from typing import Any

from corpdir.server.storage.db import Database
from corpdir.spec.location import L1_ACCEPT_INTERVAL_SECONDS, L1_SPOT_TTL_SECONDS
from corpdir.sqlite import chunks


class LocationStore:
    db: Database

    def set_destinations(self, entries: list[dict[str, Any]], now: str) -> int:
        """Store each entry whose loginId exists; return how many entries were registered."""
        with self.db.write() as conn:
            logins = list({e["loginId"] for e in entries})
            ids: dict[str, int] = {}
            for chunk in chunks(logins):
                ids.update(conn.execute(f"SELECT login_id, id FROM users WHERE login_id IN ({','.join('?' * len(chunk))})", chunk).fetchall())
            rows = [(ids[e["loginId"]], e["destinationId"], e.get("destinationName", ""), now) for e in entries if e["loginId"] in ids]
            conn.executemany(
                "INSERT OR REPLACE INTO destinations (user_id, destination_id, destination_name, updated_at) VALUES (?, ?, ?, ?)", rows
            )
            return len(rows)

    def get_destination(self, user_id: int) -> dict[str, Any] | None:
        with self.db.read() as conn:
            row = conn.execute("SELECT destination_id, destination_name FROM destinations WHERE user_id = ?", (user_id,)).fetchone()
        return {"destinationId": row[0], "destinationName": row[1]} if row else None

    def seconds_until_spots_accepted(self, now: float) -> float:
        """0 when an L1 request may be accepted now, else the wait (one per tenant per 5 minutes)."""
        with self.db.read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'l1_last_accepted'").fetchone()
        if row is None:
            return 0.0
        return max(0.0, float(row[0]) + L1_ACCEPT_INTERVAL_SECONDS - now)

    def register_spots(self, entries: list[dict[str, Any]], now: float, *, window: bool = True) -> tuple[int, float]:
        """(accepted count, 0) when the request is accepted: spots whose bleId is a user's
        location tag are registered. (0, seconds to wait) inside the 5-minute window,
        checked in the same transaction so two requests cannot both be accepted.
        ``window=False`` accepts every request (``corpdir server --no-rate-limit``)."""
        with self.db.write() as conn:
            if window and (wait := self.seconds_until_spots_accepted(now)) > 0:
                return 0, wait
            self._expire_spots(conn, now)
            known = {r[0] for r in conn.execute("SELECT DISTINCT ble_id FROM users WHERE ble_id != ''")}
            rows = [(e["bleId"], e["spotId"], now) for e in entries if e["bleId"] in known]
            conn.executemany("INSERT INTO spots (ble_id, spot_id, accepted_at) VALUES (?, ?, ?)", rows)
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('l1_last_accepted', ?)", (repr(now),))
            return len(rows), 0.0

    def current_spots(self, now: float) -> list[dict[str, Any]]:
        """Spots not yet expired (each lives 10 minutes from acceptance)."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT ble_id, spot_id FROM spots WHERE accepted_at > ? ORDER BY rowid", (now - L1_SPOT_TTL_SECONDS,)
            ).fetchall()
        return [{"bleId": r[0], "spotId": r[1]} for r in rows]

    def _expire_spots(self, conn: Any, now: float) -> None:
        conn.execute("DELETE FROM spots WHERE accepted_at <= ?", (now - L1_SPOT_TTL_SECONDS,))
