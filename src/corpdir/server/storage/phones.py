"""The phone-number index: every stored number under its ``corpdir.phone.match_key``.

N1, the phoneNum filters of U1 and X1, and the caller details of call histories all look
numbers up here, so '03-1234-5678', '+81 3 1234 5678' and '0312345678' meet.
"""

from __future__ import annotations

import sqlite3
from typing import Iterable


from corpdir.phone import match_key

USER, CONTACT, DIVISION = "USER", "CONTACT", "DIVISION"


class PhoneIndex:
    region: str

    def key(self, number: str) -> str:
        return match_key(number, self.region)  # fast for everyday forms and extensions (corpdir.phone)

    def index_numbers(
        self, conn: sqlite3.Connection, kind: str, ref_id: int, numbers: Iterable[str], shared: Iterable[str] = ()
    ) -> None:
        """Replace the numbers indexed for one record (``shared`` ones are delegated numbers)."""
        conn.execute("DELETE FROM phone_keys WHERE kind = ? AND ref_id = ?", (kind, ref_id))
        conn.executemany(
            "INSERT INTO phone_keys (key, kind, ref_id, shared) VALUES (?, ?, ?, ?)",
            self.key_rows(kind, ref_id, numbers, shared),
        )

    def key_rows(
        self, kind: str, ref_id: int, numbers: Iterable[str], shared: Iterable[str] = (), memo: dict[str, str] | None = None
    ) -> list[tuple]:
        """phone_keys rows of one record; ``memo`` keeps keys across records (bulk loads,
        where a company's number recurs on each of its contacts)."""
        rows: dict[tuple[str, int], tuple] = {}
        for flag, values in ((0, numbers), (1, shared)):
            for number in values:
                if not number:
                    continue
                if memo is None:
                    k = self.key(number)
                elif (k := memo.get(number)) is None:
                    k = memo[number] = self.key(number)
                if k:
                    rows.setdefault((k, flag), (k, kind, ref_id, flag))
        return list(rows.values())

    def drop_numbers(self, conn: sqlite3.Connection, kind: str, ref_ids: Iterable[int]) -> None:
        conn.executemany("DELETE FROM phone_keys WHERE kind = ? AND ref_id = ?", [(kind, i) for i in ref_ids])

    def phone_condition(self, kind: str, number: str, id_column: str) -> tuple[str, list]:
        return (
            f"{id_column} IN (SELECT ref_id FROM phone_keys WHERE key = ? AND kind = ?)",
            [self.key(number), kind],
        )
