"""Service data on screen: always a ``rich.text.Text`` built from the plain string.

Never put service data into a markup string: "[red]x[/red]" or "[link=file:///etc/passwd]"
in a name must appear as typed. Control, bidi and invisible characters are neutralised
by :func:`corpdir.text.printable` (the one rule) before they reach the terminal. Cells are sized in
terminal columns (CJK characters take two), so columns line up and truncate cleanly.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text

from corpdir.text import printable


def literal(value: object, style: str | Style = "") -> Text:
    """``value`` as inert text: no markup, no control characters."""
    return Text(printable(value), style=style, no_wrap=False)


def cell(value: object, width: int) -> str:
    """``value`` as inert text truncated (with …) or padded to exactly ``width`` terminal
    columns. Plain text, not a Rich Text: a list paints ~150 cells a frame, and building
    each through Rich's text layout took most of the frame."""
    text = printable(value)
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…" if width > 0 else ""
    return set_cell_size(text, width)


def joined(values: list[object], separator: str = ", ") -> str:
    return separator.join(printable(v) for v in values if v)
