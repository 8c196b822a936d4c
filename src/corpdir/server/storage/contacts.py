"""External contacts: folders they live in, search text, phone keys, card images, groups."""

from __future__ import annotations

import sqlite3
from typing import Any, Iterable

from corpdir.server.errors import not_found
from corpdir.phone import digits
from corpdir.server.search import CONTACTS, joined, page_ids
from corpdir.server.storage.db import Database, dumps, iso_dt, loads
from corpdir.server.storage.phones import CONTACT, PhoneIndex
from corpdir.spec.contact import CONTACT_PHONE_FIELDS
from corpdir.sqlite import chunks

_OWN_NUMBERS = ("phoneNum", "companyMobileNum", "personalMobileNum", "mobileNum", "faxNum")
_SHARED_NUMBERS = ("companyDelegatedPhoneNum", "divisionDelegatedPhoneNum")
ORDER_COLUMNS = {"updatedAt": "updated_at", "fullname": "fullname"}
_TEXT_COLUMNS = {  # X1 partial filter -> contacts_text column
    "fullname": "fullname", "fullnameKana": "fullname_kana", "companyName": "company_name",
    "companyNameKana": "company_name_kana", "divisionName": "division_name", "divisionNameKana": "division_name_kana",
}


COLUMN_FIELDS = frozenset({"contactId", "folderId", "ownerUserId", "registeredUserId", "registeredUser", "registeredAt",
                           "updatedAt", "ocrStatus", "ocrType", "ocrResult", "contactDetailsUrl"})
"""Contact fields kept in columns or made when read, never written into the stored JSON
(SQLite's triggers add the column fields X1 shows: ``schema.CONTACT_RECORD``)."""


def stored_fields(data: dict[str, Any]) -> dict[str, Any]:
    """What a contact's JSON is written with: its fields without nulls (an edit sending null
    clears the field) and without the column fields."""
    return {k: v for k, v in data.items() if v is not None and k not in COLUMN_FIELDS}


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
        """Records in the order of ``ids`` (missing ones skipped), as the spec shows them."""
        rows, registrars = self._contact_rows(ids)
        out = []
        for _, registrar_id, text in rows:
            record = loads(text)
            if (registrar := registrars.get(registrar_id)) is not None:
                record["registeredUser"] = registrar
            out.append(record)
        return out

    def get_contact_texts(self, ids: list[int]) -> list[tuple[int, bytes, bytes | None]]:
        """Each contact as (contactId, UTF-8 JSON of its record but registeredUser, UTF-8 JSON
        of its registeredUser or None), in the order of ``ids`` (missing ones skipped).

        The stored JSON already holds the column fields (``schema.CONTACT_RECORD``, kept by
        triggers), so X1 pages of 500 are read as bytes and joined: nothing is parsed, merged
        or encoded per contact (``present.contacts_json``). Each registrar is encoded once.
        """
        rows, registrars = self._contact_rows(ids)
        encoded = {uid: dumps(user).encode() for uid, user in registrars.items()}
        return [(contact_id, text, encoded.get(registrar_id)) for contact_id, registrar_id, text in rows]

    def _contact_rows(self, ids: list[int]) -> tuple[list[tuple[int, int | None, bytes]], dict[int, dict[str, Any]]]:
        """(contactId, registered user's id, stored JSON as UTF-8) in the order of ``ids``,
        and the registeredUser of each registrar."""
        if not ids:
            return [], {}
        marks = ",".join("?" * len(ids))
        with self.db.read() as conn:
            cur = conn.cursor()
            cur.row_factory = None  # plain tuples: faster than sqlite3.Row for a page of 500
            rows = {r[0]: r for r in cur.execute(
                f"SELECT id, registered_user_id, CAST(data AS BLOB) FROM contacts WHERE id IN ({marks})", ids)}
            registrars = self._registrars(conn, {r[1] for r in rows.values() if r[1]})
        return [row for contact_id in ids if (row := rows.get(contact_id)) is not None], registrars

    @staticmethod
    def _registrars(conn: sqlite3.Connection, user_ids: set[int]) -> dict[int, dict[str, Any]]:
        """registeredUser of each id: userId, fullname, loginId, divisions (from columns;
        the users' full records are not read)."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        out = {uid: {"userId": uid, "fullname": name, "loginId": login, "divisions": []}
               for uid, name, login in conn.execute(f"SELECT id, fullname, login_id FROM users WHERE id IN ({marks})", ids)}
        for uid, div_id, div_name in conn.execute(
            f"SELECT ud.user_id, d.id, d.name FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id "
            f"WHERE ud.user_id IN ({marks}) ORDER BY ud.user_id, ud.pos", ids,
        ):
            out[uid]["divisions"].append({"divisionId": div_id, "divisionName": div_name})
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
        terms = [(col, getattr(q, name)) for name, col in _TEXT_COLUMNS.items() if name in fields]
        if "freeWords" in fields:
            terms += [(None, w) for w in q.freeWords]
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
        column = ORDER_COLUMNS[q.orderBy]
        limit, offset = q.pageSize + 1, q.page * q.pageSize
        with self.db.read() as conn:
            text = CONTACTS.filter(conn, terms)
            if text is not None and text.nothing:
                return [], False
            if not q.identified:
                ids = page_ids(conn, text, "contacts", where, params, column, direction, limit, offset)
            else:
                # duplicates (same fullname, company and email1) merge into the oldest one
                if text is not None:
                    more_where, more_params = text.clauses("contacts.id", gather=True)
                    where, params = [*where, *more_where], [*params, *more_params]
                sql = (
                    "SELECT id FROM (SELECT id, fullname, updated_at, ROW_NUMBER() OVER ("
                    "PARTITION BY fullname, company_name, email1 ORDER BY registered_at, id) AS n "
                    f"FROM contacts WHERE {' AND '.join(where)}) WHERE n = 1 "
                    f"ORDER BY {column} {direction}, id {direction} LIMIT ? OFFSET ?"
                )
                ids = [r[0] for r in conn.execute(sql, [*params, limit, offset])]
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

    def _store_contact(self, conn: sqlite3.Connection, contact_id: int, data: dict[str, Any], now: str) -> None:
        data = stored_fields(data)
        conn.execute(
            "UPDATE contacts SET fullname = ?, company_name = ?, email1 = ?, updated_at = ?, data = ? WHERE id = ?",
            (data.get("fullname", ""), data.get("companyName", ""), data.get("email1", ""), now, dumps(data), contact_id),
        )
        CONTACTS.replace(conn, [self.contact_text_row(contact_id, data)])
        self.index_numbers(conn, CONTACT, contact_id, [data.get(f, "") for f in _OWN_NUMBERS],
                           [data.get(f, "") for f in _SHARED_NUMBERS])

    @staticmethod
    def contact_text_row(contact_id: int, data: dict[str, Any]) -> tuple:
        """(id, one column per X1 partial filter, words): the filters' fields, and for
        freeWords also the alphabet name, position, e-mails and phone numbers (as written
        and as digits)."""
        phones = [p for f in CONTACT_PHONE_FIELDS if (p := data.get(f))]
        numbers = [d for p in phones if (d := digits(p)) != p]
        words = joined(data.get("fullnameAlphabet"), data.get("position"), data.get("email1"), data.get("email2"),
                       *phones, *numbers)
        return (contact_id, *[joined(data.get(f)) for f in _TEXT_COLUMNS], words)

    def reindex_contacts(self, conn: sqlite3.Connection, contact_ids: Iterable[int]) -> None:
        """Refresh the search text of contacts from their stored records."""
        ids = list(contact_ids)
        for chunk in chunks(ids):
            marks = ",".join("?" * len(chunk))
            rows = conn.execute(f"SELECT id, data FROM contacts WHERE id IN ({marks})", chunk).fetchall()
            CONTACTS.delete(conn, chunk)
            CONTACTS.replace(conn, [self.contact_text_row(cid, loads(text)) for cid, text in rows])

    def delete_contact(self, contact_id: int) -> None:
        """Its card image and group memberships go too (foreign keys)."""
        with self.db.write() as conn:
            if conn.execute("DELETE FROM contacts WHERE id = ?", (contact_id,)).rowcount == 0:
                raise not_found(f"contact {contact_id}")
            CONTACTS.delete(conn, [contact_id])
            self.drop_numbers(conn, CONTACT, [contact_id])

    def add_to_group(self, group_id: int, contact_id: int) -> None:
        with self.db.write() as conn:
            conn.execute("INSERT OR IGNORE INTO contact_groups (group_id, contact_id) VALUES (?, ?)", (group_id, contact_id))

    def group_members(self, group_id: int) -> list[int]:
        with self.db.read() as conn:
            return [r[0] for r in conn.execute("SELECT contact_id FROM contact_groups WHERE group_id = ? ORDER BY contact_id", (group_id,))]
