"""Users: records, division links, search text, phone keys, password hashes."""

from __future__ import annotations

import sqlite3
from typing import Any, Iterable

from corpdir.server.errors import already_exists, not_found, unprocessable
from corpdir.server.passwords import hash_password
from corpdir.phone import digits
from corpdir.server.search import USERS, joined, page_ids
from corpdir.server.storage.db import Database, dumps, loads
from corpdir.server.storage.phones import USER, PhoneIndex
from corpdir.spec.user import USER_PHONE_FIELDS
from corpdir.sqlite import chunks

CREATE_DEFAULTS: dict[str, Any] = {
    "userType": "REGULAR_USER",
    "enabled": True,
    "level": 5,
    "initialPasswordForceChange": False,
    "forceRequestOperator": "DISABLE",
    "sortScore": 0,
}
"""Spec 2.4 defaults (level, initialPasswordForceChange, forceRequestOperator) plus the
ones this server chose where the spec is silent (type, enabled, sortScore)."""

_COLUMNS = {  # spec field -> users column kept for filters and orderings
    "loginId": "login_id", "userType": "user_type", "fullname": "fullname", "fullnameKana": "fullname_kana",
    "employeeNum": "employee_num", "email1": "email1", "bleId": "ble_id", "sortScore": "sort_score",
}
COMPANY_ADMIN = "ADMIN_COMPANY"


def _company_admin(data: dict[str, Any]) -> bool:
    return COMPANY_ADMIN in (data.get("roles") or ()) and data.get("enabled", True) is not False


ORDER_COLUMNS = {"fullname": "fullname", "sortScore": "sort_score", "employeeNum": "employee_num"}


class UserStore(PhoneIndex):
    db: Database

    # -- reading ------------------------------------------------------------------------
    def get_user(self, user_id: int) -> dict[str, Any] | None:
        found = self.get_users([user_id])
        return found[0] if found else None

    def require_user(self, user_id: int) -> dict[str, Any]:
        user = self.get_user(user_id)
        if user is None:
            raise not_found(f"user {user_id}")
        return user

    def get_users(self, ids: list[int]) -> list[dict[str, Any]]:
        """Records in the order of ``ids`` (missing ones skipped), with divisions and adapters."""
        if not ids:
            return []
        with self.db.read() as conn:
            marks = ",".join("?" * len(ids))
            rows = {r["id"]: r for r in conn.execute(f"SELECT id, data FROM users WHERE id IN ({marks})", ids)}
            links: dict[int, list[dict[str, Any]]] = {}
            for r in conn.execute(
                f"SELECT ud.user_id, d.id, d.name FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id "
                f"WHERE ud.user_id IN ({marks}) ORDER BY ud.user_id, ud.pos",
                ids,
            ):
                links.setdefault(r[0], []).append({"divisionId": r[1], "divisionName": r[2]})
            cucm = dict(conn.execute("SELECT id, name FROM cucm_adapters").fetchall())
            alpha = dict(conn.execute("SELECT id, name FROM alpha_adapters").fetchall())
        out = []
        for user_id in ids:
            row = rows.get(user_id)
            if row is None:
                continue
            record = loads(row["data"])
            record["userId"] = user_id
            record["divisions"] = links.get(user_id, [])
            if (cid := record.get("tenantCucmAdapterSettingsId")) is not None and cid in cucm:
                record["tenantCucmAdapterSettings"] = {"tenantCucmAdapterSettingsId": cid, "cucmAdapterName": cucm[cid]}
            if (aid := record.get("tenantAlphaAdapterSettingsId")) is not None and aid in alpha:
                record["tenantAlphaAdapterSettings"] = {"tenantAlphaAdapterSettingsId": aid, "alphaAdapterName": alpha[aid]}
            out.append(record)
        return out

    def list_user_ids(self, q: Any) -> tuple[list[int], bool]:
        """One page of U1: the ids in order, and whether more follow."""
        where: list[str] = []
        params: list[Any] = []

        def add(clause: str, values: Iterable[Any] = ()) -> None:
            where.append(clause)
            params.extend(values)

        fields = q.model_fields_set
        if "userType" in fields:
            add("user_type = ?", [str(q.userType)])
        terms: list[tuple[str | None, str]] = []
        if "fullname" in fields:
            terms.append(("fullname", q.fullname))
        if "fullnameKana" in fields:
            terms.append(("fullname_kana", q.fullnameKana))
        if "freeWords" in fields:
            terms.extend((None, w) for w in q.freeWords)
        with self.db.read() as conn:
            text = USERS.filter(conn, terms)
            if text is not None and text.nothing:
                return [], False
            if "divisionIds" in fields:
                ids = self.subtree_ids(conn, q.divisionIds) if q.includeSubDepartment else list(q.divisionIds)
                marks = ",".join("?" * len(ids)) or "NULL"
                add(f"id IN (SELECT user_id FROM user_divisions WHERE division_id IN ({marks}))", ids)
            if "userIds" in fields:
                add(f"id IN ({','.join('?' * len(q.userIds)) or 'NULL'})", q.userIds)
            if "loginIds" in fields:
                add(f"login_id IN ({','.join('?' * len(q.loginIds)) or 'NULL'})", q.loginIds)
            if "employeeNum" in fields:
                add("employee_num = ?", [q.employeeNum])
            if "phoneNum" in fields:
                add(*self.phone_condition(USER, q.phoneNum, "id"))
            if "email1" in fields:
                add("email1 = ?", [q.email1])
            direction = "DESC" if str(q.orderDirection) == "desc" else "ASC"
            ids = page_ids(conn, text, "users", where, params, ORDER_COLUMNS[q.orderBy], direction,
                           q.pageSize + 1, q.page * q.pageSize)
        return ids[: q.pageSize], len(ids) > q.pageSize

    # -- writing ------------------------------------------------------------------------
    def create_user(self, fields: dict[str, Any]) -> int:
        data = {**CREATE_DEFAULTS, **fields}
        with self.db.write() as conn:
            if conn.execute("SELECT 1 FROM users WHERE login_id = ?", (data["loginId"],)).fetchone():
                raise already_exists("loginId", f"loginId {data['loginId']} is already used")
            cur = conn.execute("INSERT INTO users (login_id, user_type, fullname, data) VALUES (?, ?, ?, '{}')",
                               (data["loginId"], data["userType"], data["fullname"]))
            user_id = int(cur.lastrowid)
            self._store_user(conn, user_id, {}, data)
        return user_id

    def update_user(self, user_id: int, fields: dict[str, Any]) -> None:
        with self.db.write() as conn:
            row = conn.execute("SELECT data FROM users WHERE id = ?", (user_id,)).fetchone()
            if row is None:
                raise not_found(f"user {user_id}")
            old = loads(row[0])
            new = {**old, **fields}
            if _company_admin(old) and not _company_admin(new):
                self._keep_a_company_admin(conn, user_id, "removing ADMIN_COMPANY from it or disabling it")
            self._store_user(conn, user_id, old, new)

    def _store_user(self, conn: sqlite3.Connection, user_id: int, old: dict[str, Any], data: dict[str, Any]) -> None:
        """Write a user's full record (checks references; raises before anything persists)."""
        password = data.pop("password", None)
        division_ids = data.pop("divisionIds", None)
        if (chats := data.pop("chatSettingList", None)) is not None:
            data["collaborations"] = self._collaborations(conn, chats)
        for field, table in (("tenantCucmAdapterSettingsId", "cucm_adapters"), ("tenantAlphaAdapterSettingsId", "alpha_adapters")):
            if data.get(field) is not None and data.get(field) != old.get(field):
                if not conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (data[field],)).fetchone():
                    raise unprocessable(f"{field} {data[field]} does not exist", field)
        if division_ids is not None:
            self._link_divisions(conn, user_id, division_ids)
        columns = {col: data.get(field, "" if col != "sort_score" else 0) for field, col in _COLUMNS.items()}
        sets = ", ".join(f"{col} = ?" for col in columns)
        conn.execute(f"UPDATE users SET {sets}, data = ? WHERE id = ?", [*columns.values(), dumps(data), user_id])
        if password is not None:
            conn.execute("UPDATE users SET password_hash = ? WHERE id = ?", (hash_password(password), user_id))
        self.reindex_users(conn, [user_id])

    def _collaborations(self, conn: sqlite3.Connection, chats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """chatSettingList -> collaborations; the client name comes from the tenant's chat settings."""
        names = {int(k[len("chat:"):]): v for k, v in conn.execute("SELECT key, value FROM meta WHERE key LIKE 'chat:%'")}
        return [
            {"chatSettingSeq": c["chatSettingSeq"], "clientName": names.get(c["chatSettingSeq"], ""), "chatAccountId": c["chatAccountId"]}
            for c in chats
        ]

    def _link_divisions(self, conn: sqlite3.Connection, user_id: int, division_ids: list[int]) -> None:
        ids = list(dict.fromkeys(division_ids))
        if ids:
            marks = ",".join("?" * len(ids))
            found = {r[0] for r in conn.execute(f"SELECT id FROM divisions WHERE id IN ({marks})", ids)}
            missing = [i for i in ids if i not in found]
            if missing:
                raise unprocessable(f"division {missing[0]} does not exist", "divisionIds")
        conn.execute("DELETE FROM user_divisions WHERE user_id = ?", (user_id,))
        conn.executemany("INSERT INTO user_divisions (user_id, division_id, pos) VALUES (?, ?, ?)",
                         [(user_id, d, i) for i, d in enumerate(ids)])

    @staticmethod
    def _keep_a_company_admin(conn: sqlite3.Connection, user_id: int, change: str) -> None:
        """422 when ``user_id`` is the tenant's last enabled ADMIN_COMPANY user: without one
        nobody could give the role back, and the tenant would be locked out of administration."""
        others = conn.execute(
            "SELECT 1 FROM users WHERE id != ? AND coalesce(json_extract(data, '$.enabled'), 1) != 0"
            " AND EXISTS (SELECT 1 FROM json_each(data, '$.roles') WHERE value = ?) LIMIT 1",
            (user_id, COMPANY_ADMIN)).fetchone()
        if others is None:
            raise unprocessable(f"user {user_id} is the last enabled {COMPANY_ADMIN} user: {change} would leave "
                                f"nobody to administer the directory; give another user {COMPANY_ADMIN} first")

    def delete_user(self, user_id: int) -> None:
        """The photo, profile, keys, links and histories go with the user (foreign keys)."""
        with self.db.write() as conn:
            row = conn.execute("SELECT data FROM users WHERE id = ?", (user_id,)).fetchone()
            if row is None:
                raise not_found(f"user {user_id}")
            if _company_admin(loads(row[0])):
                self._keep_a_company_admin(conn, user_id, "deleting it")
            conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
            USERS.delete(conn, [user_id])
            self.drop_numbers(conn, USER, [user_id])

    # -- search text and phone keys -------------------------------------------------------
    def reindex_users(self, conn: sqlite3.Connection, user_ids: Iterable[int]) -> None:
        """Refresh the search text and phone keys of users from their stored records."""
        ids = list(user_ids)
        for chunk in chunks(ids):
            self._reindex_users(conn, chunk)

    def _reindex_users(self, conn: sqlite3.Connection, ids: list[int]) -> None:
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        division_names: dict[int, list[str]] = {}
        for uid, name in conn.execute(
            f"SELECT ud.user_id, d.name FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id WHERE ud.user_id IN ({marks})"
            " ORDER BY ud.user_id, ud.pos", ids
        ):
            division_names.setdefault(uid, []).append(name)
        rows = conn.execute(f"SELECT id, data FROM users WHERE id IN ({marks})", ids).fetchall()
        text_rows, key_rows = [], []
        for uid, text in rows:
            data = loads(text)
            text_rows.append(self.user_text_row(uid, data, division_names.get(uid, [])))
            key_rows += self.key_rows(USER, uid, [data.get(f, "") for f in USER_PHONE_FIELDS])
        USERS.delete(conn, ids)  # ids without a record any more lose their text too
        USERS.replace(conn, text_rows)
        self.drop_numbers(conn, USER, ids)
        conn.executemany("INSERT INTO phone_keys (key, kind, ref_id, shared) VALUES (?, ?, ?, ?)", key_rows)

    @staticmethod
    def user_text_row(user_id: int, data: dict[str, Any], division_names: list[str]) -> tuple:
        """(id, fullname, fullname_kana, words): what freeWords searches (spec 4.1: names,
        kana, alphabet, employeeNum, phone numbers as written and as digits, e-mails,
        position, post, division names)."""
        phones = [p for f in USER_PHONE_FIELDS if (p := data.get(f))]
        numbers = [d for p in phones if (d := digits(p)) != p]
        words = joined(
            data.get("fullnameAlphabet"), data.get("employeeNum"), data.get("position"), data.get("positionAlphabet"),
            data.get("post"), data.get("email1"), data.get("email2"), *phones, *numbers, *division_names,
        )
        return (user_id, joined(data.get("fullname")), joined(data.get("fullnameKana")), words)
