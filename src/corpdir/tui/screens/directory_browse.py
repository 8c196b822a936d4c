"""What the Directory's list shows: a division's people, or a search with filters, in
an order. A frozen value: the screen replaces it whenever the user changes one part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corpdir.spec.division import Division

ORDERS = ("fullname", "sortScore", "employeeNum")
ORDER_NAMES = {"fullname": "name", "sortScore": "sort score", "employeeNum": "employee no."}


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

    def caption(self, count: int, *, more: bool = False) -> str:
        """What the list shows, how many and in what order; ``more``: the service has further pages."""
        where = self.division.divisionName if self.division else "Everyone"
        scope = " and sub-divisions" if self.include_sub and self.division else ""
        what = f'search "{self.text.strip()}"' if self.text.strip() else where + scope
        arrow = "↓" if self.descending else "↑"
        many = f"first {count}, more as you scroll" if more else \
            f"{count} {'person' if count == 1 else 'people'}"
        if self.text.strip():
            return f"{what} · {many} · ranked by match"  # a search answers best first, not by name
        return f"{what} · {many} · by {ORDER_NAMES[self.order_by]} {arrow}"
