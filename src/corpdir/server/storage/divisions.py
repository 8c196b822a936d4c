"""Divisions: the parent/child tree, subtree deletion, and the users that follow renames."""

from __future__ import annotations

import sqlite3
from typing import Any, Iterable

from corpdir.server.errors import ApiError, already_exists, not_found, unprocessable
from corpdir.server.storage.db import Database, dumps, loads
from corpdir.server.storage.phones import DIVISION, PhoneIndex
from corpdir.spec.errors import ErrorStatus

_SUBTREE = """
WITH RECURSIVE tree(id) AS (SELECT id FROM divisions WHERE id IN ({marks})
    UNION SELECT d.id FROM divisions d JOIN tree t ON d.parent_id = t.id)
SELECT id FROM tree
"""


class DivisionStore(PhoneIndex):
    """Mixed into Storage after UserStore, whose ``reindex_users`` refreshes members' search text."""

    db: Database

    def subtree_ids(self, conn: sqlite3.Connection, roots: Iterable[int]) -> list[int]:
        roots = list(roots)
        if not roots:
            return []
        return [r[0] for r in conn.execute(_SUBTREE.format(marks=",".join("?" * len(roots))), roots)]

    def get_divisions(self, ids: list[int]) -> list[dict[str, Any]]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        with self.db.read() as conn:
            rows = {r["id"]: r for r in conn.execute(f"SELECT id, parent_id, data FROM divisions WHERE id IN ({marks})", ids)}
            children: dict[int, list[int]] = {}
            for parent, child in conn.execute(
                f"SELECT parent_id, id FROM divisions WHERE parent_id IN ({marks}) ORDER BY sort_score DESC, id", ids
            ):
                children.setdefault(parent, []).append(child)
        out = []
        for division_id in ids:
            if (row := rows.get(division_id)) is None:
                continue
            record = loads(row["data"])
            record.update(divisionId=division_id, parentDivisionId=row["parent_id"], childDivisionIds=children.get(division_id, []))
            out.append(record)
        return out

    def require_division(self, division_id: int) -> dict[str, Any]:
        found = self.get_divisions([division_id])
        if not found:
            raise not_found(f"division {division_id}")
        return found[0]

    def list_division_ids(self, q: Any) -> tuple[list[int], bool]:
        where, params = [], []
        fields = q.model_fields_set
        if "divisionIds" in fields:
            where.append(f"id IN ({','.join('?' * len(q.divisionIds)) or 'NULL'})")
            params += q.divisionIds
        if "divisionCodes" in fields:
            where.append(f"code IN ({','.join('?' * len(q.divisionCodes)) or 'NULL'})")
            params += q.divisionCodes
        if "divisionName" in fields:
            where.append("instr(lower(name), lower(?)) > 0")
            params.append(q.divisionName)
        if q.firstLayer:
            where.append("parent_id IS NULL")
        sql = "SELECT id FROM divisions" + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY sort_score DESC, id LIMIT ? OFFSET ?"
        with self.db.read() as conn:
            ids = [r[0] for r in conn.execute(sql, [*params, q.pageSize + 1, q.page * q.pageSize])]
        return ids[: q.pageSize], len(ids) > q.pageSize

    def create_division(self, fields: dict[str, Any]) -> int:
        data = {"sortScore": 0, **fields}
        parent = data.pop("parentDivisionId", None)
        with self.db.write() as conn:
            if parent is not None and not conn.execute("SELECT 1 FROM divisions WHERE id = ?", (parent,)).fetchone():
                raise unprocessable(f"division {parent} does not exist", "parentDivisionId")
            self._check_code(conn, data["divisionCode"], None)
            cur = conn.execute(
                "INSERT INTO divisions (parent_id, code, name, sort_score, data) VALUES (?, ?, ?, ?, ?)",
                (parent, data["divisionCode"], data["divisionName"], data["sortScore"], dumps(data)),
            )
            division_id = int(cur.lastrowid)
            self.index_numbers(conn, DIVISION, division_id, [], [data.get("divisionPhoneNum", "")])
        return division_id

    def update_division(self, division_id: int, fields: dict[str, Any]) -> None:
        with self.db.write() as conn:
            row = conn.execute("SELECT parent_id, data FROM divisions WHERE id = ?", (division_id,)).fetchone()
            if row is None:
                raise not_found(f"division {division_id}")
            data = {**loads(row["data"]), **fields}
            parent = row["parent_id"]
            if "parentDivisionId" in data:
                parent = data.pop("parentDivisionId") or None  # 0 = top level
                if parent is not None:
                    if not conn.execute("SELECT 1 FROM divisions WHERE id = ?", (parent,)).fetchone():
                        raise unprocessable(f"division {parent} does not exist", "parentDivisionId")
                    if parent in self.subtree_ids(conn, [division_id]):
                        raise ApiError(ErrorStatus.UNPROCESSABLE, "a division cannot move under itself or its own descendant")
            if "divisionCode" in fields:
                self._check_code(conn, data["divisionCode"], division_id)
            conn.execute(
                "UPDATE divisions SET parent_id = ?, code = ?, name = ?, sort_score = ?, data = ? WHERE id = ?",
                (parent, data["divisionCode"], data["divisionName"], data.get("sortScore", 0), dumps(data), division_id),
            )
            self.index_numbers(conn, DIVISION, division_id, [], [data.get("divisionPhoneNum", "")])
            if "divisionName" in fields:
                members = [r[0] for r in conn.execute("SELECT user_id FROM user_divisions WHERE division_id = ?", (division_id,))]
                self.reindex_users(conn, members)

    def delete_division(self, division_id: int) -> None:
        """The division and everything below it; users stay, their links to these go."""
        with self.db.write() as conn:
            ids = self.subtree_ids(conn, [division_id])
            if not ids:
                raise not_found(f"division {division_id}")
            marks = ",".join("?" * len(ids))
            members = [r[0] for r in conn.execute(f"SELECT DISTINCT user_id FROM user_divisions WHERE division_id IN ({marks})", ids)]
            conn.execute("DELETE FROM divisions WHERE id = ?", (division_id,))
            self.drop_numbers(conn, DIVISION, ids)
            self.reindex_users(conn, members)

    def _check_code(self, conn: sqlite3.Connection, code: str, own_id: int | None) -> None:
        row = conn.execute("SELECT id FROM divisions WHERE code = ?", (code,)).fetchone()
        if row is not None and row[0] != own_id:
            raise already_exists("divisionCode", f"divisionCode {code} is already used")
