"""A division named by its path: '本社 › 技術本部 › 品質保証部 › 1課'.

A company has many divisions called '1課'; only the path says which one is meant. Every
place that names a division (lists, detail panes, caller-ID, exports, pop-ups, the
gateway) formats it here, so they agree. When space is short the path loses its top
first ('… › 品質保証部 › 1課'): the division itself and its parent are what tell two
'1課' apart, so when even the parent's whole name does not fit, the end of it is kept
('…保証部 › 1課') rather than dropped, and a marker such as '+1' (more divisions) is
shown only where it takes none of that. Widths are terminal cells as Rich measures them
when it lays out a screen (:func:`cells`), so a shortened path is never cut again by
Rich. No I/O and nothing heavy to import: `corpdir lookup` uses it on its fast path
(without a width, so Rich is not imported there).
"""

from __future__ import annotations

from functools import lru_cache

from corpdir.text import printable

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Iterable

SEPARATOR = " › "
ELLIPSIS = "…"


def cells(text: str) -> int:
    """Terminal cells ``text`` takes, by Rich's own measure (``rich.cells.cell_len``): a
    kanji takes two, a combining mark (a decomposed dakuten) none, '›', '…', Greek and box
    drawing one. Not ``unicodedata.east_asian_width``: that disagrees with Rich on some
    2,700 characters (docs/divisions.md, "Measured as Rich measures")."""
    from rich.cells import cell_len  # here, not at the top: `corpdir lookup` never measures

    return cell_len(text)


def _cut_left(text: str, width: int) -> str:
    """The end of ``text`` that fits ``width`` cells after an ellipsis, never starting with
    a mark that belongs to a character left out."""
    kept, used = "", cells(ELLIPSIS)
    for ch in reversed(text):
        used += cells(ch)
        if used > width:
            break
        kept = ch + kept
    while kept and (cells(kept[0]) == 0 or cells(ELLIPSIS + kept) > width):  # joined sequences measure as a whole
        kept = kept[1:]
    return ELLIPSIS + kept


def _shortened(parts: list[str], width: int) -> str:
    full = SEPARATOR.join(parts)
    if cells(full) <= width:
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
    return _cut_left(parts[-1], width) if width > 1 else ELLIPSIS[:max(width, 0)]


def division_path(names: Iterable[str | None], width: int | None = None, marker: str = "") -> str:
    """The path from the top division to this one (``names`` top first), followed by
    ``marker`` (' +1': the person is in more divisions).

    Within ``width`` cells when given (text for a screen: the names are made
    :func:`~corpdir.text.printable` first, so what is measured is what is shown): whole
    names are dropped from the top, replaced by '…'; when the parent's whole name does not
    fit, the end of it that does is kept; when even the division's own name does not fit,
    its end is kept. The marker takes cells only where the path can spare them: it is left
    out when it would cost any of the division's own name or its parent's (a list names
    every division elsewhere, in its detail pane)."""
    parts = tuple(n for n in names if n)
    if width is None:
        return SEPARATOR.join(parts) + marker
    return _fitted(parts, width, marker)


@lru_cache(maxsize=4096)  # a list repaints the same few dozen paths at each scroll: ~30 us each to fit
def _fitted(names: tuple[str, ...], width: int, marker: str) -> str:
    parts = [printable(n) for n in names]
    plain = _shortened(parts, width)
    if not marker:
        return plain
    marked = _shortened(parts, width - cells(marker))
    if cells(marked + marker) <= width and (marked == plain or marked.endswith(SEPARATOR.join(parts[-2:]))):
        return marked + marker
    return plain
