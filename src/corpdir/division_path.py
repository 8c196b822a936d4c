"""A division named by its path: '本社 › 技術本部 › 品質保証部 › 1課'.

A company has many divisions called '1課'; only the path says which one is meant. Every
place that names a division (lists, detail panes, caller-ID, exports, pop-ups, the
gateway) formats it here, so they agree. When space is short the path loses its top
first ('… › 品質保証部 › 1課'): the division itself and its parent are what tell two
'1課' apart, so when even the parent's whole name does not fit, the end of it is kept
('…保証部 › 1課') rather than dropped. Widths are terminal cells (a kanji is two). No I/O and nothing heavy to
import: `corpdir lookup` uses it on its fast path.
"""

from __future__ import annotations

from unicodedata import east_asian_width

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Iterable

SEPARATOR = " › "
ELLIPSIS = "…"


def cells(text: str) -> int:
    """Terminal cells ``text`` takes (wide and full-width characters take two)."""
    return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)


def _cut_left(text: str, width: int) -> str:
    """The end of ``text`` that fits ``width`` cells after an ellipsis."""
    kept, used = "", cells(ELLIPSIS)
    for ch in reversed(text):
        used += cells(ch)
        if used > width:
            break
        kept = ch + kept
    return ELLIPSIS + kept


def division_path(names: Iterable[str | None], width: int | None = None) -> str:
    """The path from the top division to this one (``names`` top first), within ``width``
    cells when given: whole names are dropped from the top, replaced by '…'; when the
    parent's whole name does not fit, the end of it that does is kept; when even the
    division's own name does not fit, its end is kept."""
    parts = [n for n in names if n]
    full = SEPARATOR.join(parts)
    if width is None or cells(full) <= width:
        return full
    for start in range(1, len(parts) - 1):
        shorter = SEPARATOR.join([ELLIPSIS, *parts[start:]])
        if cells(shorter) <= width:
            return shorter
    if len(parts) > 1:
        cut = _cut_left(SEPARATOR.join(parts[-2:]), width)
        if len(cut) > len(ELLIPSIS + SEPARATOR + parts[-1]):  # some of the parent's name is kept
            return cut
        own = SEPARATOR.join([ELLIPSIS, parts[-1]])
        if cells(own) <= width:
            return own
    return _cut_left(parts[-1], width) if width > 1 else ELLIPSIS[:width]
