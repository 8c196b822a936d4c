"""Profiles (one per user): the lists of spec 2.6 and custom column values."""

from __future__ import annotations

from typing import Any

from corpdir.server.errors import unprocessable
from corpdir.server.storage.db import Database, dumps, loads


class ProfileStore:
    db: Database

    def get_profile(self, user_id: int) -> dict[str, Any]:
        with self.db.read() as conn:
            row = conn.execute("SELECT data, self_updated_at FROM profiles WHERE user_id = ?", (user_id,)).fetchone()
            titles = dict(conn.execute("SELECT id, title FROM custom_columns").fetchall())
        data = loads(row[0]) if row else {}
        if "customColumns" in data:
            data["customColumns"] = [{**c, "customColumnTitle": titles.get(c["customColumnId"], "")} for c in data["customColumns"]]
        if row and row[1]:
            data["selfUpdatedAt"] = row[1]
        return data

    def update_profile(self, user_id: int, fields: dict[str, Any], self_updated_at: str | None) -> None:
        """A list sent replaces the stored list; ``self_updated_at`` when the user edits their own."""
        with self.db.write() as conn:
            for column in fields.get("customColumns", []):
                if not conn.execute("SELECT 1 FROM custom_columns WHERE id = ?", (column["customColumnId"],)).fetchone():
                    raise unprocessable(f"custom column {column['customColumnId']} does not exist", "customColumns")
            row = conn.execute("SELECT data, self_updated_at FROM profiles WHERE user_id = ?", (user_id,)).fetchone()
            data = {**(loads(row[0]) if row else {}), **fields}
            stamp = self_updated_at or (row[1] if row else None)
            conn.execute("INSERT OR REPLACE INTO profiles (user_id, data, self_updated_at) VALUES (?, ?, ?)", (user_id, dumps(data), stamp))

    def add_custom_column(self, title: str, column_id: int | None = None) -> int:
        with self.db.write() as conn:
            return int(conn.execute("INSERT INTO custom_columns (id, title) VALUES (?, ?)", (column_id, title)).lastrowid)
