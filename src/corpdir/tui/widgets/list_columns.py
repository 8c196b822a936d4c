"""A :class:`~corpdir.tui.widgets.virtual_list.VirtualList`'s columns: what a column
shows of a row and how its title shortens.

Apart from the list widget because each screen declares its columns (the directory's,
the contacts', the calls') while the widget only lays them out and paints them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from corpdir.phone import for_display


@dataclass(frozen=True)
class Column:
    """A list column: ``value`` gives a row's cell, or ``fit`` gives it for the column's
    width instead (text that shortens itself: a division path loses its top first)."""

    title: str
    value: Callable[[Any], object] | None = None
    width: int = 0  # 0: share the remaining width by ``ratio``
    min_width: int = 6
    ratio: int = 1
    fit: Callable[[Any, int], object] | None = None

    def cell_value(self, row: Any, width: int) -> object:
        if self.fit is not None:
            return self.fit(row, width)
        assert self.value is not None, f"column {self.title!r} has neither value nor fit"
        return self.value(row)


def column_title(title: str, width: int) -> str:
    """A column's title in its width: "Division / position" becomes "Division" rather
    than "Division / p…" when it does not fit."""
    return title.split(" / ")[0] if len(title) > width else title


def number_column(title: str, number_of: Callable[[Any], str | None], region: str, width: int) -> Column:
    """A column of phone numbers, each shown by the one display rule of every screen
    (:func:`corpdir.phone.for_display`: '07014467971' and '+817014467971' are both
    '070-1446-7971' in Japan), so a list, a detail pane and a ring card write a number alike."""
    return Column(title, lambda row: for_display(number_of(row), region), width=width)
