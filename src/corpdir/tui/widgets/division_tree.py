"""The company's divisions as a tree: the top layer first, children fetched when a
node opens (a "loading…" placeholder meanwhile), each with its member count.

Children come from the cache at once, then from the API (D1 by the parent's
childDivisionIds) in a worker; the result is posted back and the node's children are
replaced. Names are service text, so labels are built as ``Text``, never markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from corpdir.service.errors import CorpdirError
from corpdir.service.first_records import as_model
from corpdir.tui.text import literal
from corpdir.tui.widgets.fitted_tree import FittedTree

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService
    from corpdir.spec.division import Division

LOADING = "loading…"


class DivisionTree(FittedTree["Division | None"]):
    class DivisionSelected(Message):
        """A division (None: the whole company) was chosen."""

        def __init__(self, division: Division | None) -> None:
            super().__init__()
            self.division = division

    class LoadFailed(Message):
        def __init__(self, error: Exception) -> None:
            super().__init__()
            self.error = error

    def __init__(self, service: DirectoryService, *, id: str | None = None) -> None:
        super().__init__(Text("All divisions"), data=None, id=id)
        self.service = service
        self.show_root = True
        self.guide_depth = 2
        self._loaded: set[int] = set()
        self._reopen: set[int] = set()  # divisions to open again as a reload refills the tree
        # Where the cursor goes back to after a reload, best first: the division it was on,
        # the one after it, the one before it, its parent; _placed: the best one taken yet.
        self._return_to: list[int] = []
        self._placed = 0
        self._tickets: dict[int, int] = {}  # a node's division id (0: the root) -> its newest load

    def on_mount(self) -> None:
        self.root.expand()
        self.load_children(self.root, ask_service=False)  # the cache now; the service once rows are shown

    def records_checked(self) -> None:
        """The first screen's plain divisions (corpdir.service.first_records) made models;
        a load still under way makes its own (:meth:`_fill`)."""
        for node in self._division_nodes():
            node.data = as_model(node.data)

    def refresh_from_service(self) -> None:
        """Ask the service for the top divisions (the owner calls this when its first
        rows are on screen, so the start-up paint never waits for the API)."""
        self.load_children(self.root)

    async def _label(self, division: Division) -> Text:
        count = await self.service.divisions.member_count(division.divisionId)
        label = literal(division.divisionName or division.divisionCode or f"#{division.divisionId}")
        if count:
            label.append(f" ({count})", style="dim")
        return label

    async def _fill(self, node: TreeNode[Division | None], divisions: list[Division], ticket: int) -> None:
        """``node``'s children made ``divisions``, unless a newer load of the node was asked
        for meanwhile. The labels (each a member count from the cache) are read first and
        the children replaced without an await between: two loads of one node run at once
        at the start (the cache's, then the service's), and filled a line at a time they
        interleaved, leaving divisions twice and out of order."""
        labels = [await self._label(division) for division in divisions]
        key = node.data.divisionId if node.data is not None else 0
        if ticket != self._tickets.get(key):
            return
        if not self.service.divisions.provisional:  # read plain, come after the settings' check (no await since)
            divisions = [as_model(division) for division in divisions]
        node.remove_children()
        for division, label in zip(divisions, labels):
            # Variants A and B carry no childDivisionIds: such a node may have children.
            expandable = bool(division.childDivisionIds) if division.childDivisionIds is not None else True
            child = node.add(label, data=division, allow_expand=expandable)
            if expandable:
                child.add_leaf(Text(LOADING, style="italic dim"))
                if division.divisionId in self._reopen:
                    child.expand()  # its children load as on any expand
            if division.divisionId in self._return_to:
                self.call_after_refresh(self._put_back, division.divisionId)

    def _division_nodes(self) -> list[TreeNode[Division | None]]:
        """Every node below the root, depth first."""
        out, stack = [], list(reversed(self.root.children))
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children))
        return out

    def reload_keeping_place(self, *, open_also: Iterable[int] = ()) -> None:
        """Read the divisions again after one was created, moved or deleted, keeping the
        user's place: the divisions that were open open again (and ``open_also``: a moved
        division's new parent), and the cursor goes back to the division it was on, or,
        when that one is gone, to the one that took its line, the one before, its parent."""
        self._reopen = {n.data.divisionId for n in self._division_nodes() if n.data is not None and n.is_expanded}
        self._reopen |= set(open_also)
        self._return_to = self._places(self.cursor_node)
        self._placed = len(self._return_to)
        self._loaded.clear()
        self.load_children(self.root)

    @staticmethod
    def _places(node: TreeNode[Division | None] | None) -> list[int]:
        """The divisions the cursor may go back to, best first (see reload_keeping_place)."""
        if node is None or node.data is None or node.parent is None:
            return []
        siblings = [n.data.divisionId for n in node.parent.children if n.data is not None]
        here = siblings.index(node.data.divisionId)
        parent = [node.parent.data.divisionId] if node.parent.data is not None else []
        return [node.data.divisionId, *siblings[here + 1:here + 2], *siblings[max(here - 1, 0):here][::-1], *parent]

    def _put_back(self, division_id: int) -> None:
        """The cursor on ``division_id`` if it is the best place found yet (a better one,
        found later, takes it over), unless the user has moved on."""
        if division_id not in self._return_to or self._return_to.index(division_id) > self._placed:
            return
        node = next((n for n in self._division_nodes() if n.data is not None and n.data.divisionId == division_id), None)
        if node is None:
            return
        self._placed = self._return_to.index(division_id)
        _ = self.last_line  # the tree's lines laid out for the nodes as they are now (node lines are read from them)
        self.move_cursor(node)

    def on_key(self) -> None:
        """The user moves on: a reload no longer puts their place back."""
        self._reopen.clear()
        self._return_to = []

    on_click = on_key

    @work(group="division-tree-counts", exclusive=True)
    async def refresh_counts(self) -> None:
        """Each division's member count again (after people were created or deleted)."""
        for node in self._division_nodes():
            if node.data is not None:
                node.set_label(await self._label(node.data))

    @work(group="division-tree")
    async def load_children(self, node: TreeNode[Division | None], *, ask_service: bool = True) -> None:
        """The node's children from the cache, then (``ask_service``) from the service."""
        parent = node.data
        key = parent.divisionId if parent is not None else 0
        ticket = self._tickets[key] = self._tickets.get(key, 0) + 1
        cached = await self.service.divisions.children(None if parent is None else parent.divisionId)
        if cached:
            await self._fill(node, cached, ticket)
        elif not node.children:
            node.add_leaf(Text(LOADING, style="italic dim"))
        if not ask_service or ticket != self._tickets.get(key):  # a newer load of the node asks the service
            return
        try:
            fresh = await self.service.divisions.refresh_children(parent)
        except CorpdirError as exc:
            if ticket == self._tickets.get(key):
                if not cached:
                    node.remove_children()
                self.post_message(self.LoadFailed(exc))
            return
        self._loaded.add(key)
        await self._fill(node, fresh, ticket)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Division | None]) -> None:
        """Children load when a node opens: from the service the first time, from the
        cache when the node was made again by a reload (its children not yet shown)."""
        node = event.node
        if node.data is None:
            return
        first_time = node.data.divisionId not in self._loaded
        waiting = all(child.data is None for child in node.children)  # only the "loading…" line
        if first_time or waiting:
            self.load_children(node, ask_service=first_time)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Division | None]) -> None:
        event.stop()

    def on_tree_node_selected(self, event: Tree.NodeSelected[Division | None]) -> None:
        event.stop()
        self.post_message(self.DivisionSelected(event.node.data))
