"""Folders (F1, P1-P3): the shared and personal address-book folders contacts live in."""

from __future__ import annotations

from typing import Any, AsyncIterator, Mapping

from corpdir.client._args import merge
from corpdir.client._base import BaseClient
from corpdir.spec import Page
from corpdir.spec.folder import Folder, FolderQuery, PersonalFolder, PersonalFolderCreate, PersonalFolderEdit, PersonalFolderQuery


class FoldersResource(BaseClient):
    """F1, P1-P3: address-book folders."""

    async def list_folders(self, query: FolderQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[Folder]:
        """F1: shared then personal address-book folders."""
        return await self._call("F1", query=merge(query, params))

    async def list_personal_folders(
        self, query: PersonalFolderQuery | Mapping[str, Any] | None = None, /, **params: Any
    ) -> Page[PersonalFolder]:
        """P1: the caller's personal folders."""
        return await self._call("P1", query=merge(query, params))

    async def create_personal_folder(
        self, folder: PersonalFolderCreate | Mapping[str, Any] | None = None, /, **fields: Any
    ) -> PersonalFolder:
        """P2: create a personal folder (folderName required)."""
        return await self._call("P2", body=merge(folder, fields))

    async def edit_personal_folder(
        self,
        folder_num: int,
        changes: PersonalFolderEdit | Mapping[str, Any] | None = None,
        *,
        original: PersonalFolder | Mapping[str, Any] | None = None,
        edited: PersonalFolder | Mapping[str, Any] | None = None,
    ) -> PersonalFolder:
        """P3: rename or re-sort a personal folder."""
        return await self._edit("P3", {"folderNum": folder_num}, changes, original, edited)

    def iter_folders(self, query: FolderQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[Folder]:
        """Every folder (F1)."""
        return self.paginate("F1", query, **params)

    def iter_personal_folders(
        self, query: PersonalFolderQuery | Mapping[str, Any] | None = None, /, **params: Any
    ) -> AsyncIterator[PersonalFolder]:
        """Every personal folder (P1)."""
        return self.paginate("P1", query, **params)
