"""Favourites and recently viewed people and contacts, one key away at the desk: kept in
corpdir's local state, per profile (service and key), never sent anywhere."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from corpdir.spec.phone_fields import first_phone

if TYPE_CHECKING:
    from corpdir.state import State

RECENT_KEPT = 20
FAVOURITES_KEPT = 100


@dataclass(frozen=True)
class PersonRef:
    kind: str  # "user" or "contact"
    id: int
    name: str
    number: str = ""  # the one a receptionist dials first

    @property
    def key(self) -> tuple[str, int]:
        return (self.kind, self.id)


def ref_of(record: Any) -> PersonRef | None:
    """A person (User) or contact (Contact) as a reference; None for anything else."""
    if getattr(record, "userId", None) is not None and hasattr(record, "loginId"):
        return PersonRef("user", record.userId, record.fullname or "", first_phone(record))
    if getattr(record, "contactId", None) is not None and hasattr(record, "companyName"):
        return PersonRef("contact", record.contactId, record.fullname or "", first_phone(record))
    return None


class PeopleAtHand:
    def __init__(self, state: State, profile: str) -> None:
        self.state = state
        self.key = f"people_at_hand:{profile}"

    def _load(self, which: str) -> list[PersonRef]:
        entries = (self.state.get(self.key) or {}).get(which) or []
        out = []
        for entry in entries:
            try:
                out.append(PersonRef(**entry))
            except TypeError:
                continue
        return out

    def _store(self, which: str, refs: list[PersonRef]) -> None:
        data = dict(self.state.get(self.key) or {})
        data[which] = [asdict(r) for r in refs]
        self.state.set(self.key, data)

    def favourites(self) -> list[PersonRef]:
        return self._load("favourites")

    def recent(self) -> list[PersonRef]:
        return self._load("recent")

    def toggle_favourite(self, ref: PersonRef) -> bool:
        """Add or remove; True when it is a favourite now."""
        favourites = self.favourites()
        if any(f.key == ref.key for f in favourites):
            self._store("favourites", [f for f in favourites if f.key != ref.key])
            return False
        self._store("favourites", [*favourites, ref][-FAVOURITES_KEPT:])
        return True

    def viewed(self, ref: PersonRef) -> None:
        self._store("recent", [ref, *(r for r in self.recent() if r.key != ref.key)][:RECENT_KEPT])
