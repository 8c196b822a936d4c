"""A tree whose width follows its labels (within the limits its CSS gives) and whose
labels, where they are still too wide, are shortened in the name, never in the count:
"品質保証… (12)", not "品質保証部 (1". The division and folder trees are both."""

from __future__ import annotations

import re
from typing import TypeVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from corpdir.tui.text import clip

T = TypeVar("T")
_COUNT = re.compile(r" \(\d+\)$")


def fit_label(label: Text, room: int) -> Text:
    """``label`` in at most ``room`` cells: a trailing count (" (12)") is kept whole and
    the name before it shortened with "…"; with no room for the count, the name alone."""
    if label.cell_len <= room:
        return label
    if room <= 0:
        return Text()
    count = _COUNT.search(label.plain)
    cut = count.start() if count is not None and room - cell_len(count.group()) >= 2 else len(label.plain)
    name, tail = label[:cut], label[cut:]
    short = clip(name.plain, room - tail.cell_len)
    return Text.assemble(name[:len(short) - 1], "…", tail)


class FittedTree(Tree[T]):
    DEFAULT_CSS = """
    FittedTree { width: auto; overflow-x: hidden; }
    """

    def _indent(self, node: TreeNode[T]) -> int:
        depth, parent = 0, node.parent
        while parent is not None:
            depth, parent = depth + 1, parent.parent
        if not self.show_root:
            depth -= 1
        return max(depth, 0) * self.guide_depth

    def get_label_width(self, node: TreeNode[T]) -> int:
        """The whole label's width: what the tree's own width follows (``width: auto``)."""
        icon = self.ICON_NODE if node.allow_expand else ""
        return cell_len(icon) + node.label.cell_len

    def render_label(self, node: TreeNode[T], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        room = self.scrollable_content_region.width - self._indent(node)
        if room <= 0 or text.cell_len <= room:
            return text
        icon = cell_len(self.ICON_NODE) if node.allow_expand else 0
        return Text.assemble(text[:icon], fit_label(text[icon:], room - icon))
