"""The tenant as a whole: settings (company, contract date), API keys, the first admin of
a fresh database, and bulk loading of a generated demo tenant."""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, datetime
from typing import Any

from corpdir.server.passwords import hash_password
from corpdir.server.storage.db import Database, dumps, iso_dt
from corpdir.server.storage.schema import CONTACT_RECORD
from corpdir.server.storage.phones import CONTACT, DIVISION, USER, PhoneIndex
from corpdir.server.storage.users import CREATE_DEFAULTS, UserStore
from corpdir.server.search import CONTACTS, USERS
from corpdir.server.storage.contacts import ContactStore, stored_fields
from corpdir.spec.user import USER_PHONE_FIELDS

_SHARED_CONTACT_NUMBERS = ("companyDelegatedPhoneNum", "divisionDelegatedPhoneNum")


_BULK_TABLES = ("users", "user_divisions", "contacts", "phone_keys")


def key_hash(key: str) -> str:
    """API keys are stored as SHA-256 digests: a leaked database does not leak keys."""
    return hashlib.sha256(key.encode()).hexdigest()


def _iso(value: Any) -> Any:
    return iso_dt(value) if isinstance(value, datetime) else value


class TenantStore(PhoneIndex):
    db: Database

    # -- settings -----------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        with self.db.read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.db.write() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def location_contract_date(self) -> date | None:
        value = self.get_meta("location_contract_date")
        return date.fromisoformat(value) if value else None

    def is_empty(self) -> bool:
        with self.db.read() as conn:
            return conn.execute("SELECT 1 FROM users LIMIT 1").fetchone() is None

    # -- keys ---------------------------------------------------------------------------
    def create_api_key(self, user_id: int, key: str | None = None, label: str = "", description: str = "") -> str:
        key = key or secrets.token_urlsafe(24)
        with self.db.write() as conn:
            conn.execute("INSERT OR REPLACE INTO api_keys (key_hash, user_id, label, description) VALUES (?, ?, ?, ?)",
                         (key_hash(key), user_id, label, description))
        return key

    def user_for_key(self, key: str) -> int | None:
        with self.db.read() as conn:
            row = conn.execute("SELECT user_id FROM api_keys WHERE key_hash = ?", (key_hash(key),)).fetchone()
        return row[0] if row else None

    def bootstrap(self, key: str | None = None) -> str:
        """A fresh database gets one ADMIN_COMPANY user, a shared folder and its API key."""
        assert isinstance(self, UserStore)
        user_id = self.create_user({
            "loginId": "admin", "fullname": "Administrator", "roles": ["ADMIN_COMPANY"], "paapiAvailable": True,
        })
        with self.db.write() as conn:
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('company_name', 'Example Corporation')")
            conn.execute("INSERT INTO shared_folders (name) VALUES ('Shared contacts')")
        return self.create_api_key(user_id, key, "bootstrap", "first administrator of a new directory")

    # -- demo tenant --------------------------------------------------------------------
    def load_tenant(self, tenant: Any) -> None:
        """Bulk insert a generated tenant (corpdir.server.demo.model.DemoTenant) in one transaction."""
        assert isinstance(self, UserStore) and isinstance(self, ContactStore)
        with self.db.write() as conn:
            # the big tables' indexes are dropped and made again after: one sorted build
            # each is much faster than 100k random inserts into each of them
            marks = ",".join("?" * len(_BULK_TABLES))
            indexes = conn.execute(
                f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ({marks})",
                _BULK_TABLES).fetchall()
            for name, _ in indexes:
                conn.execute(f"DROP INDEX {name}")
            # and the triggers that merge a contact's column fields into its JSON: per row they
            # cost a nested update each (the insert trigger's update fires the update trigger);
            # one UPDATE after the rows does their work
            triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'contacts'").fetchall()
            for name, _ in triggers:
                conn.execute(f"DROP TRIGGER {name}")
            conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [
                ("company_name", tenant.company_name),
                ("location_contract_date", tenant.location_contract_date.isoformat() if tenant.location_contract_date else ""),
            ])
            conn.executemany("INSERT INTO custom_columns (id, title) VALUES (?, ?)",
                             [(c["customColumnId"], c["customColumnTitle"]) for c in tenant.custom_columns])
            conn.executemany("INSERT INTO cucm_adapters (id, name) VALUES (?, ?)",
                             [(a["tenantCucmAdapterSettingsId"], a["cucmAdapterName"]) for a in tenant.cucm_adapters])
            conn.executemany("INSERT INTO alpha_adapters (id, name) VALUES (?, ?)",
                             [(a["tenantAlphaAdapterSettingsId"], a["alphaAdapterName"]) for a in tenant.alpha_adapters])
            self._load_divisions(conn, tenant.divisions)
            self._load_users(conn, tenant)
            conn.executemany("INSERT INTO api_keys (key_hash, user_id, label, description) VALUES (?, ?, ?, ?)",
                             [(key_hash(k.key), k.user_id, k.label, k.description) for k in tenant.api_keys])
            # thumbnails are made on first request (MediaStore.get_photo): 100k photos load in seconds
            conn.executemany("INSERT INTO photos (user_id, full) VALUES (?, ?)", list(tenant.photos.items()))
            conn.executemany("INSERT INTO profiles (user_id, data, self_updated_at) VALUES (?, ?, ?)", [
                (uid, dumps({k: _iso(v) for k, v in p.items() if k != "selfUpdatedAt"}), _iso(p.get("selfUpdatedAt")))
                for uid, p in tenant.profiles.items()
            ])
            conn.executemany("INSERT INTO shared_folders (folder_num, name) VALUES (?, ?)",
                             [(f["folderNum"], f["folderName"]) for f in tenant.shared_folders])
            conn.executemany(
                "INSERT INTO personal_folders (folder_num, owner_id, name, sort_score, created_at) VALUES (?, ?, ?, ?, ?)",
                [(f["folderNum"], f["ownerUserId"], f["folderName"], f.get("sortScore", 0), _iso(f["createdAt"]))
                 for f in tenant.personal_folders],
            )
            self._load_contacts(conn, tenant)
            conn.execute(f"UPDATE contacts SET data = {CONTACT_RECORD}")
            self._load_calls(conn, tenant)
            for _, sql in [*indexes, *triggers]:
                conn.execute(sql)
            conn.execute("ANALYZE")  # statistics for the planner: bulk data changes its choices

    def _load_divisions(self, conn: Any, divisions: list[dict[str, Any]]) -> None:
        rows, keys = [], []
        for d in divisions:
            data = {k: v for k, v in d.items() if k not in ("divisionId", "parentDivisionId") and v is not None}
            rows.append((d["divisionId"], d.get("parentDivisionId"), d["divisionCode"], d["divisionName"], d.get("sortScore", 0), dumps(data)))
            keys += self.key_rows(DIVISION, d["divisionId"], [], [d.get("divisionPhoneNum", "")])
        conn.executemany("INSERT INTO divisions (id, parent_id, code, name, sort_score, data) VALUES (?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO phone_keys (key, kind, ref_id, shared) VALUES (?, ?, ?, ?)", keys)

    def _load_users(self, conn: Any, tenant: Any) -> None:
        names = {d["divisionId"]: d["divisionName"] for d in tenant.divisions}
        rows, links, fts, keys = [], [], [], []
        memo: dict[str, str] = {}
        for u in tenant.users:
            uid = u["userId"]
            data = {**CREATE_DEFAULTS, **{k: v for k, v in u.items() if k not in ("userId", "password", "divisionIds") and v is not None}}
            password = u.get("password")
            rows.append((uid, data["loginId"], data["userType"], data["fullname"], data.get("fullnameKana", ""),
                         data.get("employeeNum", ""), data.get("email1", ""), data.get("bleId", ""), data.get("sortScore", 0),
                         hash_password(password) if password else None, dumps(data)))
            division_ids = list(dict.fromkeys(u.get("divisionIds") or []))
            links += [(uid, d, i) for i, d in enumerate(division_ids)]
            fts.append(self.user_text_row(uid, data, [names[d] for d in division_ids if d in names]))
            keys += self.key_rows(USER, uid, [data.get(f, "") for f in USER_PHONE_FIELDS], memo=memo)
        conn.executemany(
            "INSERT INTO users (id, login_id, user_type, fullname, fullname_kana, employee_num, email1, ble_id, sort_score,"
            " password_hash, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO user_divisions (user_id, division_id, pos) VALUES (?, ?, ?)", links)
        USERS.load(conn, fts)
        conn.executemany("INSERT INTO phone_keys (key, kind, ref_id, shared) VALUES (?, ?, ?, ?)", keys)

    def _load_contacts(self, conn: Any, tenant: Any) -> None:
        rows, fts, keys = [], [], []
        memo: dict[str, str] = {}
        for c in tenant.contacts:
            cid = c["contactId"]
            data = stored_fields(c)
            folder = c["folderId"]
            rows.append((cid, folder["directory"], folder["folderNum"], c.get("ownerUserId"), data.get("fullname", ""),
                         data.get("companyName", ""), data.get("email1", ""), c.get("registeredUserId"),
                         _iso(c["registeredAt"]), _iso(c["updatedAt"]), c.get("ocrStatus"), c.get("ocrType"),
                         c.get("ocrResult"), dumps(data)))
            fts.append(self.contact_text_row(cid, data))
            own = [data.get(f, "") for f in ("phoneNum", "companyMobileNum", "personalMobileNum", "mobileNum", "faxNum")]
            keys += self.key_rows(CONTACT, cid, own, [data.get(f, "") for f in _SHARED_CONTACT_NUMBERS], memo=memo)
        conn.executemany(
            "INSERT INTO contacts (id, directory, folder_num, owner_id, fullname, company_name, email1, registered_user_id,"
            " registered_at, updated_at, ocr_status, ocr_type, ocr_result, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows)
        CONTACTS.load(conn, fts)
        conn.executemany("INSERT INTO phone_keys (key, kind, ref_id, shared) VALUES (?, ?, ?, ?)", keys)
        conn.executemany("INSERT INTO cards (contact_id, image) VALUES (?, ?)", list(tenant.cards.items()))

    def _load_calls(self, conn: Any, tenant: Any) -> None:
        for records, table, id_field, time_field, time_column in (
            (tenant.incoming_calls, "incoming_calls", "incomingCallHistoryId", "calledAt", "called_at"),
            (tenant.outgoing_calls, "outgoing_calls", "outgoingCallHistoryId", "callingAt", "calling_at"),
        ):
            rows = []
            for r in records:
                data = {k: v for k, v in r.items() if k not in (id_field, "ownerUserId", "answered", time_field) and v is not None}
                rows.append((r[id_field], r["ownerUserId"], int(r["answered"]), _iso(r[time_field]), dumps(data)))
            conn.executemany(f"INSERT INTO {table} (id, owner_id, answered, {time_column}, data) VALUES (?, ?, ?, ?, ?)", rows)
