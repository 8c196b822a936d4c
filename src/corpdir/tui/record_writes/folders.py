"""A personal folder's writes: new, and rename (the folders the key owns; shared folders
are the service's)."""

from __future__ import annotations

from typing import Callable

from textual.screen import Screen

from corpdir.tui.context import AppContext
from corpdir.tui.record_writes import RecordWrites
from corpdir.tui.widgets.folder_tree import FolderScope


class FolderWrites(RecordWrites):
    """``changed()``: a folder was created or saved (the folder tree reads them again)."""

    def __init__(self, host: Screen, context: AppContext, *, changed: Callable[[], None]) -> None:
        super().__init__(host, context, "contacts-write")
        self.changed = changed

    def new(self) -> None:
        from corpdir.tui.forms.specs import personal_folder_form
        from corpdir.tui.forms.writes import open_form

        open_form(self.host, personal_folder_form(None), None, self.service.contacts.create_personal_folder,
                  lambda f: (self.notify(f"Created folder {f.folderName}"), self.changed()))

    def edit(self, scope: FolderScope) -> None:
        """The personal folder shown; any other scope is told to choose one."""
        self.run(self._edit(scope))

    async def _edit(self, scope: FolderScope) -> None:
        from corpdir.tui.forms.specs import personal_folder_form
        from corpdir.tui.forms.writes import open_form

        folder = next((f for f in await self.service.contacts.personal_folders() if f.folderNum == scope.folder_num), None) \
            if scope.directory == "PERSONAL" else None
        if folder is None:
            self.notify("Choose one of your personal folders first", severity="warning")
            return
        open_form(self.host, personal_folder_form(folder), folder,
                  lambda changes: self.service.contacts.edit_personal_folder(folder, changes=changes),
                  lambda f: (self.notify(f"Saved folder {f.folderName}"), self.changed()))
