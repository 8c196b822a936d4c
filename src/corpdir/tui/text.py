"""Service data on screen: always a ``rich.text.Text`` built from the plain string.

Never put service data into a markup string: "[red]x[/red]" or "[link=file:///etc/passwd]"
in a name must appear as typed. Control, bidi and invisible characters are neutralised
by :func:`corpdir.text.printable` (the one rule) before they reach the terminal. Cells are sized in
terminal columns (CJK characters take two), so columns line up and truncate cleanly.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
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
    if cell_len(text) > width:  # "営業企…", not "営業企 …": a wide character that does not fit leaves the pad after "…"
        return set_cell_size(clip(text, width), width)
    return set_cell_size(text, width)


def clip(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, ending in "…" when shortened (never padded, and
    never a wide character cut in half)."""
    if cell_len(text) <= width:
        return text
    return text[:_fit(text, width - 1, 0)] + "…" if width > 0 else ""


def joined(values: list[object], separator: str = ", ") -> str:
    return separator.join(printable(v) for v in values if v)


_BREAK_AFTER = frozenset("/?&=,;")
_BREAK_BEFORE = frozenset(".@")
_HYPHENS = frozenset("-_")


def _breaks(text: str, *, fine: bool = False) -> list[int]:
    """Where a line may break in ``text``: after a space, before '.' or '@', after '/',
    '?', '&' ...; with ``fine`` (for a part wider than the line) also after '-' and '_'
    and between two characters when either is wide (Japanese wraps between any two).
    Never inside a run of Latin letters or digits, so an e-mail address or a URL breaks
    at its parts ("asuka.aoki@corpo-denki" / ".example"), never mid-word."""
    after_these = _BREAK_AFTER | _HYPHENS if fine else _BREAK_AFTER
    points = []
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if before.isspace() or after.isspace():
            if not after.isspace():
                points.append(i)
        elif (before in after_these and after not in after_these) or (after in _BREAK_BEFORE and before not in _BREAK_BEFORE
                                                                       and not _in_dotted_number(text, i)) \
                or (fine and (cell_len(before) > 1 or cell_len(after) > 1)):
            points.append(i)
    return points


def _in_dotted_number(text: str, i: int) -> bool:
    """True when the '.' at ``i`` is inside a dotted number (an IP address '127.0.0.1', a
    version '2.15.1'): one part of an address, never split ('http://127.0.0' / '.1:51611')."""
    return text[i] == "." and text[i - 1].isdigit() and i + 1 < len(text) and text[i + 1].isdigit()


class Wrapped:
    """Service text that wraps at the points :func:`_breaks` allows (Rich wraps only at
    spaces and folds a long word at any character): between words and at an address's
    parts first; a part wider than the line after its hyphens or between Japanese
    characters; only a Latin word wider than the line is folded. Built with
    :func:`literal`'s rule: no markup, no control characters."""

    def __init__(self, value: object, style: str | Style = "") -> None:
        self.text = literal(value, style)
        plain = self.text.plain
        self.pieces = self.text.divide(_breaks(plain)) if plain else [self.text]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [cell_len(piece.plain.rstrip()) for piece in self.pieces]
        return Measurement(max(widths, default=0), max(cell_len(self.text.plain), 1))

    def _fitting(self, width: int) -> list[Text]:
        """The pieces, those wider than ``width`` divided at the finer points."""
        out: list[Text] = []
        for piece in self.pieces:
            out += piece.divide(_breaks(piece.plain, fine=True)) if cell_len(piece.plain.rstrip()) > width else [piece]
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 1)
        line = Text(style=self.text.style, end="")
        lines: list[Text] = []
        for piece in self._fitting(width):
            if line.plain and cell_len(line.plain + piece.plain.rstrip()) > width:
                lines.append(line)
                line = Text(style=self.text.style, end="")
            line.append_text(piece)
            while cell_len(line.plain.rstrip()) > width:  # one word wider than the line: folded
                head, line = line.divide([_fit(line.plain, width)])
                lines.append(head)
        lines.append(line)
        for text in lines:
            text.rstrip()
            text.end = "\n"
            yield text


def _fit(text: str, width: int, at_least: int = 1) -> int:
    """How many characters of ``text`` fill at most ``width`` cells (``at_least`` anyway)."""
    used = 0
    for i, char in enumerate(text):
        used += cell_len(char)
        if used > width:
            return max(i, at_least)
    return len(text)
