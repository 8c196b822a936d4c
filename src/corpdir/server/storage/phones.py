"""The phone-number index: every stored number under its ``corpdir.phone.match_key``.

N1, the phoneNum filters of U1 and X1, and the caller details of call histories all look
numbers up here, so '03-1234-5678', '+81 3 1234 5678' and '0312345678' meet.
"""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from typing import Iterable

import phonenumbers
from phonenumbers import PhoneMetadata

from corpdir.phone import match_key

USER, CONTACT, DIVISION = "USER", "CONTACT", "DIVISION"


class PhoneIndex:
    region: str

    def key(self, number: str) -> str:
        """``match_key(number, region)``. Plain digits too short to be a number of the
        region (extensions such as '605701') are their own key: that is what match_key
        answers too, after a full phonenumbers parse that took most of a bulk load."""
        shortest, idd = _short_digits(self.region)
        if len(number) < shortest and number.isdigit() and number.isascii() and not (idd and number.startswith(idd)):
            return number
        return match_key(number, self.region)  # fast for everyday forms (see corpdir.phone)

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


@lru_cache(maxsize=16)
def _short_digits(region: str) -> tuple[int, str]:
    """(n, idd): in ``region``, a string of fewer than n digits that does not start with the
    international prefix idd is not a possible number, so its match key is its digits.

    Such a string parses (if at all) with the region's own country code and a national
    number no longer than itself, and phonenumbers' possibility check fails for a national
    number shorter than the region's shortest possible length. Regions with local-only
    lengths, or that are not the main region of their country code, get n = 0 (no shortcut).
    """
    meta = PhoneMetadata.metadata_for_region(region)
    if meta is None or meta.general_desc is None:
        return 0, ""
    lengths = meta.general_desc.possible_length or ()
    if not lengths or meta.general_desc.possible_length_local_only:
        return 0, ""
    if phonenumbers.region_code_for_country_code(meta.country_code) != region:
        return 0, ""
    idd = meta.international_prefix or ""
    if not idd.isdigit():
        return 0, ""  # a pattern of prefixes: leave every case to match_key
    return min(lengths), idd
