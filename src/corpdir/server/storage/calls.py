"""The calling user's incoming and outgoing call histories.

Both kinds share one implementation, parameterised by ``CallKind`` (table, id field,
number field, time field), so H1-H3 and H4-H6 cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corpdir.server.storage.db import Database, dumps, loads


@dataclass(frozen=True)
class CallKind:
    table: str
    id_field: str
    number_field: str
    contact_field: str
    time_field: str
    time_column: str


INCOMING = CallKind("incoming_calls", "incomingCallHistoryId", "fromNum", "fromNumContact", "calledAt", "called_at")
OUTGOING = CallKind("outgoing_calls", "outgoingCallHistoryId", "toNum", "toNumContact", "callingAt", "calling_at")


class CallStore:
    db: Database

    def call_owner(self, kind: CallKind, call_id: int) -> int | None:
        with self.db.read() as conn:
            row = conn.execute(f"SELECT owner_id FROM {kind.table} WHERE id = ?", (call_id,)).fetchone()
        return row[0] if row else None

    def get_call(self, kind: CallKind, call_id: int) -> dict[str, Any]:
        with self.db.read() as conn:
            row = conn.execute(f"SELECT id, answered, {kind.time_column}, data FROM {kind.table} WHERE id = ?", (call_id,)).fetchone()
        return self._record(kind, row)

    def _record(self, kind: CallKind, row: Any) -> dict[str, Any]:
        record = loads(row[3])
        record.update({kind.id_field: row[0], "answered": bool(row[1]), kind.time_field: row[2]})
        return record

    def list_calls(self, kind: CallKind, owner_id: int, q: Any) -> tuple[list[dict[str, Any]], bool]:
        direction = "DESC" if str(q.orderDirection) == "desc" else "ASC"
        sql = f"SELECT id, answered, {kind.time_column}, data FROM {kind.table} WHERE owner_id = ?"
        params: list[Any] = [owner_id]
        if "answered" in q.model_fields_set:
            sql += " AND answered = ?"
            params.append(int(q.answered))
        sql += f" ORDER BY {kind.time_column} {direction}, id {direction} LIMIT ? OFFSET ?"
        with self.db.read() as conn:
            rows = conn.execute(sql, [*params, q.pageSize + 1, q.page * q.pageSize]).fetchall()
        return [self._record(kind, r) for r in rows[: q.pageSize]], len(rows) > q.pageSize

    def create_call(self, kind: CallKind, owner_id: int, fields: dict[str, Any]) -> int:
        data = {k: v for k, v in fields.items() if k not in ("answered", kind.time_field)}
        with self.db.write() as conn:
            cur = conn.execute(
                f"INSERT INTO {kind.table} (owner_id, answered, {kind.time_column}, data) VALUES (?, ?, ?, ?)",
                (owner_id, int(fields["answered"]), fields[kind.time_field], dumps(data)),
            )
            return int(cur.lastrowid)

    def update_call(self, kind: CallKind, call_id: int, fields: dict[str, Any]) -> None:
        with self.db.write() as conn:
            row = conn.execute(f"SELECT answered, {kind.time_column}, data FROM {kind.table} WHERE id = ?", (call_id,)).fetchone()
            data = {**loads(row[2]), **{k: v for k, v in fields.items() if k not in ("answered", kind.time_field)}}
            conn.execute(
                f"UPDATE {kind.table} SET answered = ?, {kind.time_column} = ?, data = ? WHERE id = ?",
                (int(fields.get("answered", row[0])), fields.get(kind.time_field, row[1]), dumps(data), call_id),
            )
