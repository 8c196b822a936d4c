"""What the Directory's list shows: a division's people, or a search with filters, in
an order. A frozen value: the screen replaces it whenever the user changes one part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, get_args

from corpdir.spec.enums import UserOrderBy
from corpdir.text import printable

if TYPE_CHECKING:
    from corpdir.spec.division import Division

ORDERS = ("fullname", "sortScore", "employeeNum", "extensionNum")
ORDER_NAMES = {"fullname": "name", "sortScore": "sort score", "employeeNum": "employee no.", "extensionNum": "extension"}
SERVICE_ORDERS = get_args(UserOrderBy)  # what U1 sorts by; the cache sorts by extension too


@dataclass(frozen=True)
class Browse:
    """A division's people (cache windows) or a search (text and U1 filters)."""

    division: Division | None = None
    include_sub: bool = False
    order_by: str = "fullname"
    descending: bool = False
    text: str = ""
    filters: tuple[tuple[str, Any], ...] = ()

    @property
    def searching(self) -> bool:
        return bool(self.text.strip() or self.filters)

    def caption(self, count: int, *, more: bool = False, syncing: bool = False, where: str | None = None) -> str:
        """What the list shows, how many and in what order; ``more``: the service has further
        pages; ``syncing``: a sync is under way, so an empty list is not yet known to be empty;
        ``where``: the division as the screen names it (its path), else its own name."""
        if where is None:
            where = self.division.divisionName if self.division else "Everyone"
        scope = " and sub-divisions" if self.include_sub and self.division else ""
        what = f'search "{self.text.strip()}"' if self.text.strip() else where + scope
        arrow = "↓" if self.descending else "↑"
        if syncing and not count and not self.searching:
            return f"{what} · syncing…"
        many = f"first {count}, more as you scroll" if more else \
            f"{count} {'person' if count == 1 else 'people'}"
        if self.text.strip():
            return f"{what} · {many} · ranked by match"  # a search answers best first, not by name
        return f"{what} · {many} · by {ORDER_NAMES[self.listed_order]} {arrow}"

    @property
    def listed_order(self) -> str:
        """The order the list is in: a filter search is the service's (U1), which cannot sort
        by extension and answers by name then."""
        return "fullname" if self.searching and self.order_by not in SERVICE_ORDERS else self.order_by

    def empty_text(self) -> str:
        """What an empty list says: a search or filter that found no one says so; "No one
        here yet." is for a division (or directory) that has no people."""
        text = printable(self.text.strip())
        if text:
            return f"No one matches “{text}”" + (" with these filters." if self.filters else ".")
        return "No one matches these filters." if self.filters else "No one here yet."
