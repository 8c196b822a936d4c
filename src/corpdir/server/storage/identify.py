"""Phone-number identification (N1, and the caller details of call histories).

One number is answered by its best match, in this order: a user's own number (USER), a
visible contact's own number (CONTACT), a division's number, then a contact's company or
division delegated number (both SHARED_NUMBER: many people answer it).
"""

from __future__ import annotations

from typing import Any

from corpdir.server.storage.db import Database
from corpdir.server.storage.phones import CONTACT, DIVISION, USER, PhoneIndex


class IdentifyStore(PhoneIndex):
    db: Database

    def identify(self, numbers: list[str], viewer_id: int) -> list[dict[str, Any]]:
        return [self.identify_one(n, viewer_id) for n in numbers]

    def identify_one(self, number: str, viewer_id: int) -> dict[str, Any]:
        key = self.key(number)
        item: dict[str, Any] = {"phoneNum": number}
        if not key:
            return item
        with self.db.read() as conn:
            company = self.company_name(conn)
            row = conn.execute(
                "SELECT u.id, u.fullname FROM phone_keys k JOIN users u ON u.id = k.ref_id "
                "WHERE k.key = ? AND k.kind = ? ORDER BY u.id LIMIT 1", (key, USER)
            ).fetchone()
            if row:
                names = [r[0] for r in conn.execute(
                    "SELECT d.name FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id WHERE ud.user_id = ? ORDER BY ud.pos", (row[0],))]
                return {**item, "displayName": row[1], "companyName": company, "divisionNames": names,
                        "phoneNumContactType": "USER", "userId": row[0]}
            contacts = conn.execute(
                "SELECT c.id, c.fullname, c.company_name, json_extract(c.data, '$.divisionName'), k.shared, "
                "json_extract(c.data, '$.divisionDelegatedPhoneNum') "
                "FROM phone_keys k JOIN contacts c ON c.id = k.ref_id WHERE k.key = ? AND k.kind = ? "
                "AND (c.directory = 'SHARED' OR c.owner_id = ?) ORDER BY k.shared, c.id LIMIT 1",
                (key, CONTACT, viewer_id),
            ).fetchone()
            if contacts and not contacts[4]:
                cid, name, comp, div = contacts[:4]
                return {**item, "displayName": name, "companyName": comp, "divisionNames": [div] if div else [],
                        "phoneNumContactType": "CONTACT", "contactId": cid}
            division = conn.execute(
                "SELECT d.name FROM phone_keys k JOIN divisions d ON d.id = k.ref_id WHERE k.key = ? AND k.kind = ? ORDER BY d.id LIMIT 1",
                (key, DIVISION),
            ).fetchone()
            if division:
                return {**item, "displayName": division[0], "companyName": company, "divisionNames": [division[0]],
                        "phoneNumContactType": "SHARED_NUMBER"}
            if contacts:
                _, _, comp, div, _, div_num = contacts
                by_division = bool(div and div_num and self.key(div_num) == key)
                return {**item, "displayName": (div if by_division else comp) or comp, "companyName": comp,
                        "divisionNames": [div] if by_division else [], "phoneNumContactType": "SHARED_NUMBER"}
        return item

    def company_name(self, conn: Any) -> str:
        row = conn.execute("SELECT value FROM meta WHERE key = 'company_name'").fetchone()
        return row[0] if row else ""
