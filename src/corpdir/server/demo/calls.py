"""Call histories of the documented key users (H1-H6 show only the caller's own).

The reception desk gets the busiest history (mostly external callers), the admin and
the no-API user smaller ones. Numbers are mostly those of users and contacts in the
tenant, often written the way a PBX reports them ('0312345678', '+81312345678') rather
than as stored, so caller-ID lookup has to normalize to find them; a few are unknown
numbers. Times lie in the 30 days before the tenant's reference time (from the seed,
not the wall clock), mostly in office hours on weekdays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from corpdir.server.demo import names as N
from corpdir.server.demo.numbers import NumberPlan, alternative_form

Record = dict[str, Any]

VOICEMAIL_HOST = "https://voicemail.corpo-denki.example"


@dataclass(frozen=True)
class Volume:
    incoming: int
    outgoing: int
    external_share: float  # how many calls are with external contacts rather than colleagues


VOLUMES: tuple[Volume, ...] = (  # admin, reception, noapi (the order of DEMO_KEYS)
    Volume(45, 30, 0.4),
    Volume(180, 60, 0.85),
    Volume(60, 50, 0.7),
)


class _Numbers:
    """Where call numbers come from: colleagues, contacts, or nobody known."""

    def __init__(self, users: list[Record], contacts: list[Record]) -> None:
        self.internal = [u[f] for u in users for f in ("extensionNum", "phoneNum", "companyMobileNum") if u.get(f)]
        self.extensions = [u["extensionNum"] for u in users if u.get("extensionNum")]
        self.external = [c[f] for c in contacts
                         for f in ("phoneNum", "companyMobileNum", "companyDelegatedPhoneNum") if c.get(f)]

    def pick(self, rng: random.Random, external_share: float, plan: NumberPlan) -> str:
        x = rng.random()
        if x < 0.08:
            return plan.unknown()
        if x < 0.08 + external_share * 0.92 and self.external:
            number = rng.choice(self.external)
        else:
            number = rng.choice(self.extensions if rng.random() < 0.7 else self.internal)
        # Lines report external numbers without hyphens, or in international form.
        if "-" in number and not number.startswith("+") and rng.random() < 0.5:
            return alternative_form(number, rng)
        return number


def _call_time(rng: random.Random, reference: datetime) -> datetime:
    """A moment in the 30 days before ``reference``: weekdays 8:30-19:00 mostly."""
    while True:
        day = reference - timedelta(days=rng.randrange(0, 30))
        office = rng.random() < 0.92
        if office and day.weekday() >= 5:
            continue
        start = day.replace(hour=8, minute=30, second=0, microsecond=0) if office else day.replace(
            hour=0, minute=0, second=0, microsecond=0)
        moment = start + timedelta(seconds=rng.randrange(0, (10 * 3600 + 1800) if office else 86_400))
        if moment < reference:
            return moment


def _duration(rng: random.Random) -> int:
    return min(3600, int(rng.lognormvariate(4.6, 0.8)))  # median ~100 s, a few long calls


def build_calls(rng: random.Random, reference: datetime, owner_ids: tuple[int, ...], users: list[Record],
                contacts: list[Record], numbers: NumberPlan) -> tuple[list[Record], list[Record]]:
    pool = _Numbers(users, contacts)
    incoming: list[Record] = []
    outgoing: list[Record] = []
    for owner, volume in zip(owner_ids, VOLUMES):
        for _ in range(volume.incoming):
            answered = rng.random() < 0.75
            voicemail = None
            if not answered and rng.random() < 0.4:
                token = f"{rng.getrandbits(64):016x}"
                voicemail = {
                    "urlBrowser": f"{VOICEMAIL_HOST}/messages/{token}",
                    "urlIos": f"{VOICEMAIL_HOST}/ios/messages/{token}",
                    "urlAndroid": f"{VOICEMAIL_HOST}/android/messages/{token}",
                }
            incoming.append({
                "ownerUserId": owner,
                "fromNum": pool.pick(rng, volume.external_share, numbers),
                "answered": answered,
                "duration": _duration(rng) if answered else 0,
                "voicemail": voicemail,
                "note": rng.choice(N.CALL_NOTES) if rng.random() < (0.25 if answered else 0.5) else None,
                "calledAt": _call_time(rng, reference),
            })
        for _ in range(volume.outgoing):
            answered = rng.random() < 0.8
            outgoing.append({
                "ownerUserId": owner,
                "toNum": pool.pick(rng, volume.external_share, numbers),
                "answered": answered,
                "duration": _duration(rng) if answered else 0,
                "note": rng.choice(N.CALL_NOTES) if rng.random() < 0.15 else None,
                "callingAt": _call_time(rng, reference),
            })
    # Ids follow time, as a service that appends records as calls happen would give them.
    incoming.sort(key=lambda c: (c["calledAt"], c["ownerUserId"]))
    outgoing.sort(key=lambda c: (c["callingAt"], c["ownerUserId"]))
    for i, call in enumerate(incoming, 1):
        call["incomingCallHistoryId"] = i
    for i, call in enumerate(outgoing, 1):
        call["outgoingCallHistoryId"] = i
    return incoming, outgoing
