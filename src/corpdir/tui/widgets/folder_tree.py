"""The address books: "All contacts", then the shared folders (F1) and the caller's
personal folders (P1 order: sort score, then name), each with its contact count.

The tree paints from the cache at once, then asks the API in a worker and repaints.
Folder names are service text, so labels are built as ``Text``, never markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import Tree

from corpdir.service.errors import CorpdirError
from corpdir.tui.text import literal
from corpdir.tui.widgets.fitted_tree import FittedTree

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService
    from corpdir.spec.folder import Folder, PersonalFolder


@dataclass(frozen=True)
class FolderScope:
    """Which contacts the list shows: all (both None), one directory, or one folder."""

    directory: str | None = None
    folder_num: int | None = None
    name: str = "All contacts"


DIRECTORY_NAMES = {"SHARED": "Shared", "PERSONAL": "Personal"}


def ordered(folders: list[Folder], personal: list[PersonalFolder]) -> dict[str, list[Folder]]:
    """F1's folders by directory, the personal ones in P1's order when P1 was read."""
    by_directory: dict[str, list[Folder]] = {"SHARED": [], "PERSONAL": []}
    for folder in folders:
        by_directory.setdefault(folder.folderId.directory, []).append(folder)
    if personal:
        rank = {p.folderNum: (-(p.sortScore or 0), p.folderName or "", i) for i, p in enumerate(personal)}
        by_directory["PERSONAL"].sort(key=lambda f: rank.get(f.folderId.folderNum, (1, "", len(rank))))
    return by_directory


class FolderTree(FittedTree[FolderScope]):
    class ScopeSelected(Message):
        def __init__(self, scope: FolderScope) -> None:
            super().__init__()
            self.scope = scope

    class LoadFailed(Message):
        def __init__(self, error: Exception) -> None:
            super().__init__()
            self.error = error

    def __init__(self, service: DirectoryService, *, id: str | None = None) -> None:
        super().__init__(Text("All contacts"), data=FolderScope(), id=id)
        self.service = service
        self.guide_depth = 2
        self.auto_expand = False  # Enter chooses a directory; space opens or closes it
        self._shown: tuple | None = None

    def on_mount(self) -> None:
        self.root.expand()
        self.load()

    async def _fill(self, folders: list[Folder], personal: list[PersonalFolder]) -> None:
        """The folders with their counts. When the folders are the ones shown, only the
        counts are written again (a contact was added or deleted): the cursor stays put."""
        same = self._shown == (folders, personal)
        self._shown = (folders, personal)
        self.root.set_label(await self._label("All contacts", None, None))
        if same:
            for branch in self.root.children:
                scope = branch.data
                branch.set_label(await self._label(scope.name, scope.directory, None))
                for leaf in branch.children:
                    leaf.set_label(await self._label(leaf.data.name, leaf.data.directory, leaf.data.folder_num))
            return
        self.root.remove_children()
        for directory, entries in ordered(folders, personal).items():
            if not entries:
                continue
            name = DIRECTORY_NAMES.get(directory, directory)
            branch = self.root.add(await self._label(name, directory, None), data=FolderScope(directory, None, name),
                                   expand=True)
            for folder in entries:
                num = folder.folderId.folderNum
                scope = FolderScope(directory, num, folder.folderName or f"#{num}")
                branch.add_leaf(await self._label(scope.name, directory, num), data=scope)

    async def _label(self, name: str, directory: str | None, folder_num: int | None) -> Text:
        """A folder's (directory's, everything's) name, as text, and its contact count."""
        label = literal(name)
        label.append(f" ({await self.service.contacts.count(directory, folder_num)})", style="dim")
        return label

    @work(group="folder-tree", exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        await self._fill(await self.service.contacts.folders(), await self.service.contacts.personal_folders())
        try:
            folders = await self.service.contacts.refresh_folders()
        except CorpdirError as exc:
            self.post_message(self.LoadFailed(exc))
            return
        await self._fill(folders, await self.service.contacts.personal_folders())

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[FolderScope]) -> None:
        event.stop()

    def on_tree_node_selected(self, event: Tree.NodeSelected[FolderScope]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.ScopeSelected(event.node.data))
