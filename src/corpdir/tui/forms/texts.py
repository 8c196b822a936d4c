"""Messages of several lines (a list of bad rows, a form's problems): each line inert text,
the line breaks kept (``literal`` would turn them into U+FFFD, as it must for a name)."""

from __future__ import annotations

from rich.text import Text

from corpdir.text import printable


def literal_lines(value: object, style: str = "") -> Text:
    """``value`` as inert text, one screen line per line of it: no markup, no control
    characters other than the line breaks."""
    lines = ("" if value is None else str(value)).replace("\r\n", "\n").split("\n")
    return Text("\n".join(printable(line) for line in lines), style=style, no_wrap=False)
