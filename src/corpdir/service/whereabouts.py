"""Whereabouts the desk sets ("外出 15:00戻り"): the service takes them in bulk (U11:
loginId, destinationId, destinationName) but has no read, so the desk keeps what it last
set per person, per profile, in a file of its own (0600), and shows that.

Changes go to the service in one U11 request holding exactly the changes not yet sent,
at most one request every ``send_every`` seconds (U11 costs 10 rate-limit tokens): a
receptionist marking five people out within a minute sends one request. A change is kept
until the service has taken it, across restarts; one refused (no right to edit
destinations) stays unsent with the reason.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from corpdir.client.errors import CorpdirError
from corpdir.paths import write_durably

if TYPE_CHECKING:
    from corpdir.service.people import People


@dataclass(frozen=True)
class Whereabout:
    login_id: str
    destination_id: int
    destination_name: str  # the destination and the desk's note, as sent ("外出 15:00戻り")
    set_at: str  # ISO 8601, local time
    sent: bool = False

    @property
    def shown(self) -> str:
        """Beside the person's name: what was set, and that the service does not have it yet."""
        return self.destination_name + ("" if self.sent else " (not sent yet)")


def whereabouts_path(profile_cache: Path, data: Path) -> Path:
    return data / "desk" / f"whereabouts-{profile_cache.stem}.json"


class Whereabouts:
    def __init__(self, people: People, path: Path, *, send_every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._people = people
        self.path = path
        self.send_every = send_every
        self._clock = clock
        self._last_sent: float | None = None
        self.problem = ""  # why the last send failed ("" when it did not)
        self._by_login: dict[str, Whereabout] = self._load()
        self._sender: asyncio.Task[None] | None = None

    def _load(self) -> dict[str, Whereabout]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return {w["login_id"]: Whereabout(**w) for w in raw["whereabouts"]}
        except (OSError, ValueError, TypeError, KeyError):
            return {}

    def _save(self) -> None:
        write_durably(self.path, json.dumps({"whereabouts": [asdict(w) for w in self._by_login.values()]}, ensure_ascii=False))

    def of(self, login_id: str | None) -> Whereabout | None:
        return self._by_login.get(login_id or "")

    def set(self, login_id: str, destination_id: int, name: str, note: str = "") -> Whereabout:
        """Kept at once (on disk) and queued for the next U11."""
        shown = " ".join(part for part in (name.strip(), note.strip()) if part)
        whereabout = Whereabout(login_id, destination_id, shown, datetime.now().astimezone().isoformat(timespec="seconds"))
        self._by_login[login_id] = whereabout
        self._save()
        return whereabout

    @property
    def unsent(self) -> list[Whereabout]:
        return [w for w in self._by_login.values() if not w.sent]

    def due_in(self) -> float:
        """Seconds until the next U11 may go (0: now)."""
        if self._last_sent is None:
            return 0.0
        return max(0.0, self._last_sent + self.send_every - self._clock())

    async def send(self) -> int:
        """One U11 with the unsent changes (none: no request). Returns how many the service
        registered; on failure the changes stay unsent and :attr:`problem` says why."""
        changes = self.unsent
        if not changes:
            return 0
        self._last_sent = self._clock()
        entries = [{"loginId": w.login_id, "destinationId": w.destination_id, "destinationName": w.destination_name}
                   for w in changes]
        try:
            [result] = await self._people.send_destinations(entries)
        except CorpdirError as exc:
            from corpdir.service.messages import explain  # the operation table: not on the app's first screen

            self.problem = explain(exc)
            return 0
        self.problem = ""
        for w in changes:
            if self._by_login.get(w.login_id) == w:  # not changed again while the request was out
                self._by_login[w.login_id] = replace(w, sent=True)
        self._save()
        return result.registeredCount

    def send_soon(self, done: Callable[[int], None] | None = None) -> None:
        """Sends the unsent changes as soon as the pace allows, once (later changes join the
        waiting request); ``done`` is told how many were registered."""
        if self._sender is not None and not self._sender.done():
            return

        async def later() -> None:
            await asyncio.sleep(self.due_in())
            registered = await self.send()
            if done is not None:
                done(registered)

        self._sender = asyncio.get_running_loop().create_task(later(), name="whereabouts")
