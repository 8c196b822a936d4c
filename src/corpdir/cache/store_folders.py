"""The folder lists in the cache: the company's and shared folders, and the user's own.

A mixin of :class:`~corpdir.cache.store.CacheStore` (see :mod:`.store_base`): a folder
list comes whole from one request and replaces (or, for personal folders, updates) what
was there; it is not synced by generation nor indexed.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from corpdir.cache.records import Changes
from corpdir.cache.store_base import StoreBase, dump

if TYPE_CHECKING:
    from corpdir.spec.folder import Folder, PersonalFolder


class FolderLists(StoreBase):
    """Writes and reads of ``folders`` and ``personal_folders``."""

    @staticmethod
    def _compare(conn: sqlite3.Connection, sql: str, rows: list[tuple[Any, ...]], *, whole: bool,
                 params: Sequence[Any] = ()) -> Changes:
        """What ``rows`` (key columns, the JSON, then one more column) change against
        ``sql``'s (key columns, JSON) rows: added and changed records, and with ``whole``
        (the rows are the complete list) removed ones. A sync says only what is new."""
        before = {tuple(r[:-1]): r[-1] for r in conn.execute(sql, params)}
        keys = [tuple(r[:-2]) for r in rows]
        added = sum(1 for k in keys if k not in before)
        changed = sum(1 for k, r in zip(keys, rows) if k in before and json.loads(before[k]) != json.loads(r[-2]))
        return Changes(added, changed, len(set(before) - set(keys)) if whole else 0)

    def put_folders(self, folders: Iterable[Folder | dict[str, Any]], *, fetched_at: float | None = None) -> Changes:
        now = fetched_at if fetched_at is not None else time.time()
        rows = [(d["folderId"]["directory"], d["folderId"]["folderNum"], json.dumps(d, ensure_ascii=False), now)
                for d in map(dump, folders)]
        with self.transaction() as conn:
            changes = self._compare(conn, "SELECT directory, folder_num, data FROM folders", rows, whole=True)
            conn.execute("DELETE FROM folders")
            conn.executemany("INSERT INTO folders(directory, folder_num, data, fetched_at) VALUES (?, ?, ?, ?)", rows)
        return changes

    def put_personal_folders(self, folders: Iterable[PersonalFolder | dict[str, Any]], *, fetched_at: float | None = None) -> Changes:
        now = fetched_at if fetched_at is not None else time.time()
        rows = [(d["folderNum"], json.dumps(d, ensure_ascii=False), now) for d in map(dump, folders)]
        with self.transaction() as conn:
            changes = self._compare(conn, "SELECT folder_num, data FROM personal_folders", rows, whole=False)
            conn.executemany("INSERT OR REPLACE INTO personal_folders(folder_num, data, fetched_at) VALUES (?, ?, ?)", rows)
        return changes

    def folders(self) -> list[Folder]:
        from corpdir.spec.folder import Folder
        return [Folder.model_validate_json(r[0]) for r in self._rows("SELECT data FROM folders ORDER BY directory DESC, folder_num")]

    def personal_folders(self) -> list[PersonalFolder]:
        from corpdir.spec.folder import PersonalFolder
        return [PersonalFolder.model_validate_json(r[0]) for r in self._rows("SELECT data FROM personal_folders ORDER BY folder_num")]
