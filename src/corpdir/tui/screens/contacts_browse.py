"""What the Contacts list shows: a folder's contacts, or a search with filters within
it. A frozen value: the screen replaces it whenever the user changes one part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corpdir.text import printable
from corpdir.tui.widgets.folder_tree import FolderScope


@dataclass(frozen=True)
class ContactBrowse:
    """A folder's contacts (cache windows) or a search/filter answer within the folder."""

    scope: FolderScope = FolderScope()
    text: str = ""
    filters: tuple[tuple[str, Any], ...] = ()

    @property
    def searching(self) -> bool:
        return bool(self.text.strip() or self.filters)

    def scope_query(self) -> dict[str, Any]:
        """The folder as X1 parameters."""
        query: dict[str, Any] = {}
        if self.scope.directory:
            query["directory"] = self.scope.directory
        if self.scope.folder_num is not None:
            query["folderNums"] = [self.scope.folder_num]
        return query

    def caption(self, count: int, *, more: bool = False, syncing: bool = False) -> str:
        """What the list shows and how many; ``more``: the service has further pages;
        ``syncing``: a sync is under way, so an empty list is not yet known to be empty."""
        what = f'search "{self.text.strip()}" in {self.scope.name}' if self.text.strip() else self.scope.name
        if syncing and not count and not self.searching:
            return f"{what} · syncing…"
        if more:
            return f"{what} · first {count}, more as you scroll"
        return f"{what} · {count} {'contact' if count == 1 else 'contacts'}"

    def empty_text(self) -> str:
        """What an empty list says: a search or filter that found nothing says so."""
        text = printable(self.text.strip())
        if text:
            return f"No contact matches “{text}”" + (" with these filters." if self.filters else ".")
        return "No contact matches these filters." if self.filters else "No contacts here."
