"""What tells people of one name apart on a phone's one-line entry.

A phone entry is the name and where the person belongs: the last division of their path
('山田 太郎 (3課)') or a contact's company. Many divisions share a name ('1課', '3課'
under every department), so two 山田 太郎 in two 3課 would read the same and a phone
user could not tell them apart. :class:`Distinct` looks at everyone of one name in the
directory and gives each the shortest tail of their path that no other holder of that
name shares ('営業部 › 3課' against '総務部 › 3課'); people of one name in one division
also get their first number. Built once per state of the cache, read per row.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable

from corpdir.service.phonebook import Entry


def where(entry: Entry) -> tuple[str, ...]:
    """Where an entry belongs, what tells most last: a user's division path; a contact's
    division, then company (a contact is told apart by its company first)."""
    return (*entry.division, entry.company) if entry.company else entry.division


def name_key(name: str) -> str:
    """What two entries share when they share a name (spacing aside)."""
    return " ".join(name.split())


class Distinct:
    def __init__(self, entries: Iterable[Entry]) -> None:
        self._depth: dict[str, int] = {}  # ref -> path parts to show, for names held by more than one entry
        self._number: set[str] = set()  # refs that need their first number besides
        self.add(entries)

    def add(self, entries: Iterable[Entry]) -> None:
        """Tell apart the holders of the names of ``entries``, which hold every entry of the
        directory with those names (a name given in two calls would be told apart twice, each
        time among only some of its holders)."""
        by_name: dict[str, list[Entry]] = defaultdict(list)
        for entry in entries:
            by_name[name_key(entry.name)].append(entry)
        for same in by_name.values():
            if len(same) > 1:
                self._separate(same)

    def _separate(self, same: list[Entry]) -> None:
        places = [where(entry) for entry in same]
        # how many hold each tail: a tail held once is this entry's alone (comparing every
        # holder with every other is quadratic: seconds for a name held by hundreds)
        held = Counter(place[-d:] for place in places for d in range(1, len(place) + 1))
        for entry, mine in zip(same, places):
            depth = next((d for d in range(1, len(mine) + 1) if held[mine[-d:]] == 1), None)
            if depth is None:
                depth = max(1, len(mine))
                self._number.add(entry.ref)
            if depth > 1 or entry.ref in self._number:
                self._depth[entry.ref] = depth

    def parts(self, entry: Entry) -> tuple[int, bool]:
        """(how many parts of where the entry belongs to show, at least 1; whether to add its first number)."""
        return self._depth.get(entry.ref, 1), entry.ref in self._number


NONE = Distinct(())
