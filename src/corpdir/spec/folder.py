"""Folders (spec 2.8): shared/personal address books (F1) and personal folders (P1-P3)."""

from __future__ import annotations

from corpdir.spec import constraints as c
from corpdir.spec.common import OMIT, PageNumber, PageSize100, QueryModel, RequestModel, ResponseModel
from corpdir.spec.contact import FolderIdOut
from corpdir.spec.enums import Directory


class Folder(ResponseModel):
    folderId: FolderIdOut
    folderName: str | None = None


class FolderQuery(QueryModel):
    """F1: ordered by directory (shared first), then folderNum ascending."""

    page: PageNumber = 0
    pageSize: PageSize100 = 30
    directory: Directory = OMIT
    folderName: c.text(50) = OMIT
    editingPrivileges: bool = False


class PersonalFolder(ResponseModel):
    folderNum: int
    folderName: str | None = None
    sortScore: int | None = None


class PersonalFolderQuery(QueryModel):
    """P1: ordered by sortScore descending, folderName ascending, creation ascending."""

    page: PageNumber = 0
    pageSize: PageSize100 = 30
    folderName: c.text(50) = OMIT


class PersonalFolderEdit(RequestModel):
    """P3 body."""

    folderName: c.NotBlank50 = OMIT
    sortScore: c.SortScore = OMIT


class PersonalFolderCreate(PersonalFolderEdit):
    """P2 body; sortScore defaults to 0."""

    folderName: c.NotBlank50
