"""External contacts: folders they live in, search text, phone keys, card images, groups."""

from __future__ import annotations

import sqlite3
from typing import Any, Iterable

from corpdir.server.errors import not_found
from corpdir.server.search import fts_condition, joined
from corpdir.server.storage.db import Database, dumps, iso_dt, loads
from corpdir.server.storage.phones import CONTACT, PhoneIndex
from corpdir.spec.contact import CONTACT_PHONE_FIELDS

_OWN_NUMBERS = ("phoneNum", "companyMobileNum", "personalMobileNum", "mobileNum", "faxNum")
_SHARED_NUMBERS = ("companyDelegatedPhoneNum", "divisionDelegatedPhoneNum")
ORDER_COLUMNS = {"updatedAt": "updated_at", "fullname": "fullname"}
_FTS_COLUMNS = {
    "fullname": "fullname", "fullnameKana": "fullname_kana", "companyName": "company_name",
    "companyNameKana": "company_name_kana", "divisionName": "division_name", "divisionNameKana": "division_name_kana",
}


CONTACTS_FTS_INSERT = (
    "INSERT INTO contacts_fts (rowid, fullname, fullname_kana, company_name, company_name_kana, division_name,"
    " division_name_kana, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def visible_to(user_id: int) -> tuple[str, list[Any]]:
    """Contacts a user may view: every shared folder and their own personal folders."""
    return "(directory = 'SHARED' OR owner_id = ?)", [user_id]


class ContactStore(PhoneIndex):
    """Mixed into Storage, which provides ``now_iso`` and UserStore's ``get_users``."""

    db: Database

    # -- reading ------------------------------------------------------------------------
    def get_contact_row(self, contact_id: int) -> sqlite3.Row | None:
        with self.db.read() as conn:
            return conn.execute("SELECT id, directory, folder_num, owner_id FROM contacts WHERE id = ?", (contact_id,)).fetchone()

    def get_contacts(self, ids: list[int]) -> list[dict[str, Any]]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        with self.db.read() as conn:
            rows = {r["id"]: r for r in conn.execute(f"SELECT * FROM contacts WHERE id IN ({marks})", ids)}
        registrars = {u["userId"]: u for u in self.get_users(list({r["registered_user_id"] for r in rows.values() if r["registered_user_id"]}))}
        out = []
        for contact_id in ids:
            if (row := rows.get(contact_id)) is None:
                continue
            record = loads(row["data"])
            record.update(
                contactId=contact_id,
                folderId={"directory": row["directory"], "folderNum": row["folder_num"]},
                registeredAt=row["registered_at"], updatedAt=row["updated_at"],
                ocrStatus=row["ocr_status"], ocrType=row["ocr_type"], ocrResult=row["ocr_result"],
            )
            if (user := registrars.get(row["registered_user_id"])) is not None:
                record["registeredUser"] = {k: user.get(k) for k in ("userId", "fullname", "loginId", "divisions")}
            out.append({k: v for k, v in record.items() if v is not None})
        return out

    def list_contact_ids(self, q: Any, viewer_id: int) -> tuple[list[int], bool]:
        where, params = [], []

        def add(clause: str, values: Iterable[Any] = ()) -> None:
            where.append(clause)
            params.extend(values)

        add(*visible_to(viewer_id))
        fields = q.model_fields_set
        if "updatedFrom" in fields:
            add("updated_at >= ?", [iso_dt(q.updatedFrom)])
        if "updatedTo" in fields:
            add("updated_at <= ?", [iso_dt(q.updatedTo)])
        if "registeredUserId" in fields:
            add("registered_user_id = ?", [q.registeredUserId])
        terms = [(col, getattr(q, name)) for name, col in _FTS_COLUMNS.items() if name in fields]
        if "freeWords" in fields:
            terms += [(None, w) for w in q.freeWords]
        if cond := fts_condition("contacts_fts", terms, "id"):
            add(*cond)
        if "phoneNum" in fields:
            add(*self.phone_condition(CONTACT, q.phoneNum, "id"))
        if "email" in fields:
            add("(email1 = ? OR json_extract(data, '$.email2') = ?)", [q.email, q.email])
        if "directory" in fields:
            add("directory = ?", [str(q.directory)])
        if "folderNums" in fields:
            add(f"folder_num IN ({','.join('?' * len(q.folderNums)) or 'NULL'})", q.folderNums)
        for name, column in (("ocrStatus", "ocr_status"), ("ocrType", "ocr_type"), ("ocrResult", "ocr_result")):
            if name in fields:
                add(f"{column} = ?", [str(getattr(q, name))])
        direction = "DESC" if str(q.orderDirection) == "desc" else "ASC"
        order = f"ORDER BY {ORDER_COLUMNS[q.orderBy]} {direction}, id {direction}"
        if q.identified:
            # duplicates (same fullname, company and email1) merge into the oldest one
            sql = (
                "SELECT id FROM (SELECT id, fullname, updated_at, ROW_NUMBER() OVER ("
                "PARTITION BY fullname, company_name, email1 ORDER BY registered_at, id) AS n "
                f"FROM contacts WHERE {' AND '.join(where)}) WHERE n = 1 {order} LIMIT ? OFFSET ?"
            )
        else:
            sql = f"SELECT id FROM contacts WHERE {' AND '.join(where)} {order} LIMIT ? OFFSET ?"
        with self.db.read() as conn:
            ids = [r[0] for r in conn.execute(sql, [*params, q.pageSize + 1, q.page * q.pageSize])]
        return ids[: q.pageSize], len(ids) > q.pageSize

    # -- writing ------------------------------------------------------------------------
    def create_contact(
        self, fields: dict[str, Any], owner_id: int | None, registered_by: int, ocr: tuple[str, str, str] | None = None
    ) -> int:
        data = dict(fields)
        folder = data.pop("folderId")
        now = self.now_iso()
        status, kind, result = ocr or (None, None, None)
        with self.db.write() as conn:
            cur = conn.execute(
                "INSERT INTO contacts (directory, folder_num, owner_id, registered_user_id, registered_at, updated_at,"
                " ocr_status, ocr_type, ocr_result, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}')",
                (folder["directory"], folder["folderNum"], owner_id, registered_by, now, now, status, kind, result),
            )
            contact_id = int(cur.lastrowid)
            self._store_contact(conn, contact_id, data, now)
        return contact_id

    def update_contact(self, contact_id: int, fields: dict[str, Any]) -> None:
        with self.db.write() as conn:
            row = conn.execute("SELECT data FROM contacts WHERE id = ?", (contact_id,)).fetchone()
            if row is None:
                raise not_found(f"contact {contact_id}")
            self._store_contact(conn, contact_id, {**loads(row[0]), **fields}, self.now_iso())

    def touch_contact(self, conn: sqlite3.Connection, contact_id: int) -> None:
        conn.execute("UPDATE contacts SET updated_at = ? WHERE id = ?", (self.now_iso(), contact_id))

    def _store_contact(self, conn: sqlite3.Connection, contact_id: int, data: dict[str, Any], now: str) -> None:
        conn.execute(
            "UPDATE contacts SET fullname = ?, company_name = ?, email1 = ?, updated_at = ?, data = ? WHERE id = ?",
            (data.get("fullname", ""), data.get("companyName", ""), data.get("email1", ""), now, dumps(data), contact_id),
        )
        conn.execute("DELETE FROM contacts_fts WHERE rowid = ?", (contact_id,))
        conn.execute(CONTACTS_FTS_INSERT, self.contact_fts_row(contact_id, data))
        self.index_numbers(conn, CONTACT, contact_id, [data.get(f, "") for f in _OWN_NUMBERS],
                           [data.get(f, "") for f in _SHARED_NUMBERS])

    @staticmethod
    def contact_fts_row(contact_id: int, data: dict[str, Any]) -> tuple:
        phones = [data.get(f, "") for f in CONTACT_PHONE_FIELDS]
        words = joined(
            *(data.get(f) for f in _FTS_COLUMNS), data.get("fullnameAlphabet"), data.get("position"),
            data.get("email1"), data.get("email2"), *phones, *("".join(ch for ch in p if ch.isdigit()) for p in phones),
        )
        return (contact_id, *(joined(data.get(f)) for f in _FTS_COLUMNS), words)

    def delete_contact(self, contact_id: int) -> None:
        """Its card image and group memberships go too (foreign keys)."""
        with self.db.write() as conn:
            if conn.execute("DELETE FROM contacts WHERE id = ?", (contact_id,)).rowcount == 0:
                raise not_found(f"contact {contact_id}")
            conn.execute("DELETE FROM contacts_fts WHERE rowid = ?", (contact_id,))
            self.drop_numbers(conn, CONTACT, [contact_id])

    def add_to_group(self, group_id: int, contact_id: int) -> None:
        with self.db.write() as conn:
            conn.execute("INSERT OR IGNORE INTO contact_groups (group_id, contact_id) VALUES (?, ?)", (group_id, contact_id))

    def group_members(self, group_id: int) -> list[int]:
        with self.db.read() as conn:
            return [r[0] for r in conn.execute("SELECT contact_id FROM contact_groups WHERE group_id = ? ORDER BY contact_id", (group_id,))]
