"""People as rows with their busy lamp: what the desk view and the transfer picker list.

A row is one person with the number a call is put through to (their extension, else
their first phone number) and the extension their lamp is kept under. Rows sort free
first (then ringing, on the phone, unknown, not reachable), keeping their order within."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from rich.text import Text
from textual.widgets.option_list import Option

from corpdir.text import printable
from corpdir.tui.text import cell
from corpdir.tui.widgets.busy_lamp import ORDER, WIDTH, lamp_text

if TYPE_CHECKING:
    from corpdir.tui.busy_lamps import BusyLamps


@dataclass(frozen=True)
class LampRow:
    user_id: int
    name: str
    extension: str
    number: str  # put through to this: the extension, else the first phone number
    record: Any


def rows_of(users: Iterable[Any]) -> list[LampRow]:
    rows = []
    for user in users:
        extension = user.extensionNum or ""
        number = extension or user.phoneNum or ""
        if number:
            rows.append(LampRow(user.userId, user.fullname or "", extension, number, user))
    return rows


def by_lamp(rows: list[LampRow], lamps: BusyLamps) -> list[LampRow]:
    return sorted(rows, key=lambda row: ORDER[lamps.lamp(row.extension)])


def option(row: LampRow, lamps: BusyLamps, name_width: int, oid: str, where: str = "") -> Option:
    """The lamp, the number, the name, and where the desk last said they are ("外出 15:00戻り")."""
    text = lamp_text(lamps.lamp(row.extension))
    text.pad_right(WIDTH + 1 - text.cell_len)
    text.append(Text(f"{cell(row.extension or row.number, 14)} {cell(row.name, name_width)}"))
    if where:
        text.append(Text(f" ◆ {printable(where)}", style="bold"))
    return Option(text, id=oid)


def where_of(app: Any, row: LampRow) -> str:
    """The whereabouts the desk set for ``row``'s person ("" when none)."""
    found = app.desk_phone.whereabouts.of(getattr(row.record, "loginId", None))
    return found.shown if found is not None else ""
