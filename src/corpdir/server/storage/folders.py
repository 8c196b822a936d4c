"""Shared folders (tenant-wide address books) and personal folders (one owner each)."""

from __future__ import annotations

from typing import Any

from corpdir.server.errors import not_found
from corpdir.server.storage.db import Database


class FolderStore:
    db: Database

    def folder_owner(self, directory: str, folder_num: int) -> tuple[bool, int | None]:
        """(exists, owner user id or None for a shared folder)."""
        with self.db.read() as conn:
            if directory == "SHARED":
                row = conn.execute("SELECT 1 FROM shared_folders WHERE folder_num = ?", (folder_num,)).fetchone()
                return row is not None, None
            row = conn.execute("SELECT owner_id FROM personal_folders WHERE folder_num = ?", (folder_num,)).fetchone()
            return (row is not None, row[0] if row else None)

    def list_folders(self, q: Any, owner_id: int, shared_editable: bool) -> tuple[list[dict[str, Any]], bool]:
        """F1: shared folders first, then the caller's personal ones, each by folderNum."""
        parts, params = [], []
        fields = q.model_fields_set
        want = {"SHARED", "PERSONAL"} if "directory" not in fields else {str(q.directory)}
        if q.editingPrivileges and not shared_editable:
            want.discard("SHARED")
        name_clause = " AND instr(lower(name), lower(?)) > 0" if "folderName" in fields else ""
        name_params = [q.folderName] if "folderName" in fields else []
        if "SHARED" in want:
            parts.append(f"SELECT 0 AS d, 'SHARED' AS directory, folder_num, name FROM shared_folders WHERE 1{name_clause}")
            params += name_params
        if "PERSONAL" in want:
            parts.append(f"SELECT 1 AS d, 'PERSONAL' AS directory, folder_num, name FROM personal_folders WHERE owner_id = ?{name_clause}")
            params += [owner_id, *name_params]
        if not parts:
            return [], False
        sql = " UNION ALL ".join(parts) + " ORDER BY d, folder_num LIMIT ? OFFSET ?"
        with self.db.read() as conn:
            rows = conn.execute(sql, [*params, q.pageSize + 1, q.page * q.pageSize]).fetchall()
        items = [{"folderId": {"directory": r[1], "folderNum": r[2]}, "folderName": r[3]} for r in rows[: q.pageSize]]
        return items, len(rows) > q.pageSize

    # -- personal folders ---------------------------------------------------------------
    def get_personal_folder(self, folder_num: int) -> dict[str, Any] | None:
        with self.db.read() as conn:
            row = conn.execute("SELECT folder_num, owner_id, name, sort_score FROM personal_folders WHERE folder_num = ?", (folder_num,)).fetchone()
        if row is None:
            return None
        return {"folderNum": row[0], "ownerUserId": row[1], "folderName": row[2], "sortScore": row[3]}

    def list_personal_folders(self, q: Any, owner_id: int) -> tuple[list[dict[str, Any]], bool]:
        """P1: sortScore descending, folderName ascending, creation ascending."""
        sql = "SELECT folder_num, name, sort_score FROM personal_folders WHERE owner_id = ?"
        params: list[Any] = [owner_id]
        if "folderName" in q.model_fields_set:
            sql += " AND instr(lower(name), lower(?)) > 0"
            params.append(q.folderName)
        sql += " ORDER BY sort_score DESC, name ASC, created_at ASC, folder_num ASC LIMIT ? OFFSET ?"
        with self.db.read() as conn:
            rows = conn.execute(sql, [*params, q.pageSize + 1, q.page * q.pageSize]).fetchall()
        items = [{"folderNum": r[0], "folderName": r[1], "sortScore": r[2]} for r in rows[: q.pageSize]]
        return items, len(rows) > q.pageSize

    def create_personal_folder(self, owner_id: int, name: str, sort_score: int, created_at: str) -> int:
        with self.db.write() as conn:
            cur = conn.execute(
                "INSERT INTO personal_folders (owner_id, name, sort_score, created_at) VALUES (?, ?, ?, ?)",
                (owner_id, name, sort_score, created_at),
            )
            return int(cur.lastrowid)

    def update_personal_folder(self, folder_num: int, fields: dict[str, Any]) -> None:
        columns = {"folderName": "name", "sortScore": "sort_score"}
        sets = [(columns[k], v) for k, v in fields.items() if k in columns]
        if not sets:
            return
        with self.db.write() as conn:
            cur = conn.execute(
                f"UPDATE personal_folders SET {', '.join(c + ' = ?' for c, _ in sets)} WHERE folder_num = ?",
                [v for _, v in sets] + [folder_num],
            )
            if cur.rowcount == 0:
                raise not_found(f"personal folder {folder_num}")
