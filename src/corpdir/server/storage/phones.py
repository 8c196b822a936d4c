"""The phone-number index: every stored number under its ``corpdir.phone.match_key``.

N1, the phoneNum filters of U1 and X1, and the caller details of call histories all look
numbers up here, so '03-1234-5678', '+81 3 1234 5678' and '0312345678' meet.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Iterable

from corpdir.phone import match_key

USER, CONTACT, DIVISION = "USER", "CONTACT", "DIVISION"


_JP_DOMESTIC = re.compile(r"0[1-9][0-9-]{8,14}")


def jp_domestic_key(number: str) -> str | None:
    """``match_key(number, "JP")`` without the parser, for the common written form of a
    Japanese number ('03-1234-5678', '090-1234-5678', '0120-123-456'): a national number
    of 9 or 10 digits after the trunk 0 is a possible JP number, so its E.164 form is
    '+81' and the digits. None for any other form (the caller then asks match_key).
    Bulk loading 100k people parses ~500k numbers; this keeps that in seconds.
    The equivalence is checked by tests/server/test_phone_keys.py."""
    if not _JP_DOMESTIC.fullmatch(number) or "--" in number or number.endswith("-"):
        return None
    digits = number.replace("-", "")
    if len(digits) not in (10, 11) or digits.startswith("010"):  # 010: the international prefix
        return None
    return "+81" + digits[1:]


class PhoneIndex:
    region: str

    def key(self, number: str) -> str:
        if self.region == "JP" and (fast := jp_domestic_key(number)) is not None:
            return fast
        return match_key(number, self.region)

    def index_numbers(
        self, conn: sqlite3.Connection, kind: str, ref_id: int, numbers: Iterable[str], shared: Iterable[str] = ()
    ) -> None:
        """Replace the numbers indexed for one record (``shared`` ones are delegated numbers)."""
        conn.execute("DELETE FROM phone_keys WHERE kind = ? AND ref_id = ?", (kind, ref_id))
        conn.executemany(
            "INSERT INTO phone_keys (key, kind, ref_id, shared) VALUES (?, ?, ?, ?)",
            self.key_rows(kind, ref_id, numbers, shared),
        )

    def key_rows(self, kind: str, ref_id: int, numbers: Iterable[str], shared: Iterable[str] = ()) -> list[tuple]:
        rows: dict[tuple[str, int], tuple] = {}
        for flag, values in ((0, numbers), (1, shared)):
            for number in values:
                if number and (k := self.key(number)):
                    rows.setdefault((k, flag), (k, kind, ref_id, flag))
        return list(rows.values())

    def drop_numbers(self, conn: sqlite3.Connection, kind: str, ref_ids: Iterable[int]) -> None:
        conn.executemany("DELETE FROM phone_keys WHERE kind = ? AND ref_id = ?", [(kind, i) for i in ref_ids])

    def phone_condition(self, kind: str, number: str, id_column: str) -> tuple[str, list]:
        return (
            f"{id_column} IN (SELECT ref_id FROM phone_keys WHERE key = ? AND kind = ?)",
            [self.key(number), kind],
        )
