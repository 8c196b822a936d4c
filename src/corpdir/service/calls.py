"""What the desk's telephone needs from the directory: who is calling (from the cache, at
once), the last calls from that number, writing a finished call (H2) and its message
(H3), and the newest incoming records (H1) for the history feed.

:mod:`corpdir.calls` (feeds, recorder, dialers) and the TUI's pop-up call this, never the
client or the cache directly. Nothing here imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from corpdir.phone import for_display, match_key
from corpdir.service.backend import backend_of
from corpdir.service.identify import FIELD_LABELS, Identity, canonical, read_number

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService
    from corpdir.spec.calls import IncomingCall

H1_PAGE = 20  # H1's largest page (spec section 8)


@dataclass(frozen=True)
class Caller:
    """Who a number is, as the pop-up shows it: the one answer (:class:`Identity`), the
    number as the region writes it, the cached record of a person or contact (to open
    it), and the last calls from the number."""

    number: str  # as the feed sent it
    formatted: str  # for the region
    identity: Identity
    record: Any = None  # the User or Contact the answer names, when cached
    recent: list[IncomingCall] = field(default_factory=list)

    @property
    def known(self) -> bool:
        return self.identity.found

    @property
    def withheld(self) -> bool:
        return self.identity.kind == "withheld"

    @property
    def kind(self) -> str | None:
        """"user" or "contact" when the answer names a record (what opening it needs), else None."""
        return {"person": "user", "contact": "contact"}.get(self.identity.kind) if self.record is not None else None

    @property
    def name(self) -> str:
        return self.identity.who

    @property
    def kana(self) -> str:
        return self.identity.kana if self.identity.kind in ("person", "contact") else ""

    @property
    def affiliation(self) -> str:
        """A person's division path, a contact's company and division ('' where the name says it)."""
        return self.identity.organisation() if self.identity.kind in ("person", "contact") else ""

    @property
    def matched_field(self) -> str:
        return FIELD_LABELS.get(self.identity.field, self.identity.field)

    @property
    def matched_number(self) -> str:
        return self.identity.stored

    @property
    def record_id(self) -> int | None:
        return self.identity.id if self.kind is not None else None


class CallsByCaller:
    """The newest incoming calls (the cache's 500) grouped by caller, newest first: "the
    last calls from this number" on a ringing call without reading, sorting and validating
    the history on every ring (6-7 ms a ring with 3,000 calls in the cache; with a year's
    20,000 the query alone took 33 ms). Rebuilt when the cache's calls change
    (:meth:`CacheStore.calls_version`); used on the cache's thread only."""

    def __init__(self, store: Any, region: str) -> None:
        self.store = store
        self.region = region
        self._version: tuple[int, int] | None = None
        self._by_caller: dict[str, list[IncomingCall]] = {}

    def recent(self, number: str, limit: int) -> list[IncomingCall]:
        self.ready()
        return self._by_caller.get(match_key(number, self.region), [])[:limit]

    def ready(self) -> None:
        """Brought up to date with the cache (the next ring then finds it built)."""
        version = self.store.calls_version()
        if version == self._version:
            return
        by_caller: dict[str, list[IncomingCall]] = {}
        for call in self.store.calls("incoming", newest_first=True):
            if call.fromNum:
                by_caller.setdefault(match_key(call.fromNum, self.region), []).append(call)
        self._by_caller, self._version = by_caller, version


class CallDesk:
    """The facade's telephone side, over one :class:`DirectoryService`."""

    def __init__(self, service: DirectoryService) -> None:
        self.service = service
        self.history = CallsByCaller(backend_of(service).store, service.settings.region)

    async def ready(self) -> None:
        """The calls by caller built now, on the cache's thread, rather than on the next ring."""
        await backend_of(self.service).cache.run(self.history.ready)

    @property
    def region(self) -> str:
        return self.service.settings.region

    # -- who is calling ----------------------------------------------------------------------
    async def caller(self, number: str, recent: int = 3) -> Caller:
        """Identified from the cache only (no request: the pop-up must not wait for the
        network), in one trip to the cache's thread."""
        return await backend_of(self.service).cache.run(self._caller, number, recent)

    def _caller(self, number: str, recent: int) -> Caller:
        store = backend_of(self.service).store
        identity = read_number(number, store.holders, self.region)
        formatted = "number withheld" if identity.kind == "withheld" else for_display(identity.number or number, self.region)
        calls = self._recent(identity.number, recent) if identity.number else []
        cached = None
        if identity.kind == "person":
            cached = store.user(identity.id)
        elif identity.kind == "contact":
            cached = store.contact(identity.id)
        return Caller(number, formatted, identity, cached.record if cached is not None else None, calls)

    async def record_for(self, who: dict[str, Any]) -> Any:
        """The cached User or Contact an identification item names (None: unknown)."""
        if who.get("userId"):
            cached = await self.service.people.user(who["userId"])
        elif who.get("contactId"):
            cached = await self.service.contacts.contact(who["contactId"])
        else:
            return None
        return cached.record if cached is not None else None

    async def new_contact_folder(self) -> tuple[str, int] | None:
        """Where a caller saved as a contact goes: the user's first personal folder, else
        the first shared one (directory, folder number); None when there is neither."""
        personal = await self.service.contacts.personal_folders()
        if personal:
            return ("PERSONAL", personal[0].folderNum)
        folders = await self.service.contacts.folders()
        return (folders[0].folderId.directory, folders[0].folderId.folderNum) if folders else None

    async def to_return(self, handled: frozenset[int] = frozenset()) -> set[int]:
        """Ids of the missed calls in the cache not yet called back, nor marked ``handled``
        (see :func:`calls_to_return`)."""
        incoming = await self.service.calls.cached("incoming")
        outgoing = await self.service.calls.cached("outgoing")
        since = datetime.fromtimestamp(self.service.clock(), timezone.utc) - timedelta(days=RETURN_WITHIN_DAYS)
        return calls_to_return(incoming, outgoing, self.region, since, handled)

    def _recent(self, number: str, limit: int) -> list[IncomingCall]:
        return self.history.recent(number, limit) if limit > 0 else []

    # -- the records of calls ----------------------------------------------------------------
    def offers_history(self) -> bool:
        return self.service.offers("H1") and self.service.offers("H2")

    async def record_incoming(self, from_num: str, answered: bool, duration: int, called_at: datetime,
                              note: str = "") -> IncomingCall:
        """H2: the desk's finished call (the cache gets the record the service returns)."""
        body: dict[str, Any] = {"answered": answered, "duration": duration, "calledAt": called_at.isoformat()}
        if number := await self.from_num(from_num):
            body["fromNum"] = number
        if note:
            body["note"] = note
        record = await self.service.calls.create("incoming", body)
        await self.ready()
        return record

    async def from_num(self, sent: str) -> str:
        """The number a call record keeps for what the caller's side sent: the number the
        directory stores for a known caller, else its one spelling, in digits
        (:mod:`corpdir.service.identify`); '' for a withheld caller. However the feed spelt
        it ('sip:...;user=phone', '%2B81...', an outside-line prefix), one caller is one number."""
        identity = (await self.service.identification.cached([sent]))[0]
        return canonical([identity.stored]) if identity.found else identity.number

    async def set_note(self, record_id: int, note: str) -> IncomingCall:
        """H3 with the note only (a message taken after the call was recorded)."""
        cached = [c for c in await self.service.calls.cached("incoming") if c.incomingCallHistoryId == record_id]
        if not cached:
            from corpdir.spec.calls import IncomingCall

            cached = [IncomingCall(incomingCallHistoryId=record_id)]
        record = await self.service.calls.edit("incoming", cached[0], changes={"note": note})
        await self.ready()
        return record

    async def newest_incoming(self) -> list[IncomingCall]:
        """H1's newest page (newest first), also into the cache."""
        records = await self.service.calls.refresh("incoming", limit=H1_PAGE)
        await self.ready()
        return records

    async def find_incoming(self, from_num: str, called_at: datetime) -> IncomingCall | None:
        """A record of this call already on the service (a write whose answer was lost, or
        a process that died mid-request). H1 is read newest first until the records are
        older than the call: a desk taking 5 calls/s goes past H1's page of 20 in 4 s, so
        the newest page alone missed calls sent just before a restart."""
        number = await self.from_num(from_num)
        async for record in self.service.calls.incoming_newest_first():
            if record.calledAt is None:
                continue
            gap = (record.calledAt - called_at).total_seconds()
            if gap < -1:
                return None
            if abs(gap) < 1 and (record.fromNum or "") == number:
                return record
        return None

    def tokens_left(self) -> float | None:
        snap = self.service.rate_limit  # the client's BucketSnapshot
        return None if snap is None else snap.tokens

    def rate_budget(self) -> tuple[float, float] | None:
        """(replenish rate tokens/s, capacity) of the service's bucket, once known."""
        snap = self.service.rate_limit  # the client's BucketSnapshot
        if snap is None or not snap.rate:
            return None
        return float(snap.rate), float(snap.capacity or 0)


# -- the desk's views of its history ------------------------------------------------------------
RETURN_WITHIN_DAYS = 14  # a missed call older than this is history, not a call to return


def calls_to_return(incoming: list[Any], outgoing: list[Any], region: str, since: Any = None,
                    handled: frozenset[int] = frozenset()) -> set[int]:
    """Ids of missed incoming calls (since ``since``) not yet called back: no call to that
    number since, and no answered call from it since (the caller got through after all).
    A call in ``handled`` (marked by hand) counts as a call back at its time: it and the
    earlier missed calls from its number are done, as a call back would have done them."""
    last_contact: dict[str, Any] = {}

    def note(number: str | None, at: Any) -> None:
        if number and at is not None:
            key = match_key(number, region)
            if key not in last_contact or at > last_contact[key]:
                last_contact[key] = at

    for call in outgoing:
        note(call.toNum, call.callingAt)
    for call in incoming:
        if call.answered or call.incomingCallHistoryId in handled:
            note(call.fromNum, call.calledAt)
    pending = set()
    for call in incoming:
        if call.answered is False and call.fromNum and call.calledAt is not None and (since is None or call.calledAt >= since):
            reached = last_contact.get(match_key(call.fromNum, region))
            if reached is None or reached < call.calledAt:
                pending.add(call.incomingCallHistoryId)
    return pending


def daily_counts(incoming: list[Any], today: Any, days: int = 30) -> list[tuple[Any, int, int]]:
    """(day, answered, missed) for each of the last ``days`` days up to ``today``, in local time."""
    first = today - timedelta(days=days - 1)
    counts = {first + timedelta(days=i): [0, 0] for i in range(days)}
    for call in incoming:
        if call.calledAt is None or call.answered is None:
            continue
        day = call.calledAt.astimezone().date()
        if day in counts:
            counts[day][0 if call.answered else 1] += 1
    return [(day, answered, missed) for day, (answered, missed) in counts.items()]
