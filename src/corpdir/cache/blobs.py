"""Records stored compressed: a person's JSON in ~190 bytes instead of ~850.

A directory record is small and its key names and values repeat from one record to the
next ("fullnameAlphabet", "REGULAR_USER", the company's mail domain), so plain zlib
saves little on one record (~35%) while deflate with a *preset dictionary* drawn from
real records of the same cache saves ~78% (measured on the demo tenant: users 841 ->
193 bytes, contacts 898 -> 176, 28 us a record to compress, ~10 us to expand).

A blob is one byte naming its dictionary, then raw deflate data. Dictionaries live in
the ``zdicts`` table and never change once written: a new, larger one is made from a
later page while the current one was drawn from too little text (a first page of a
handful of records), and older blobs keep naming the one they were written with.
Kept free of pydantic: `corpdir lookup` reads records through here.
"""

from __future__ import annotations

import json
import sqlite3
import zlib

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any

DICT_BYTES = 8192  # 8 KiB: 193 bytes a user; 32 KiB gives 163 but doubles the time to compress
_LEVEL = 6
_RAW = -15  # raw deflate: no zlib header or checksum (6 bytes a record)


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class Codec:
    """Packs and unpacks records of one cache; dictionaries are read from ``zdicts`` once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._dicts: dict[int, bytes] = {}
        self._current: dict[str, int] = {}  # kind -> id of the dictionary new blobs use
        # a compressor with its dictionary already loaded, copied for each record: loading an
        # 8 KiB dictionary is most of a record's compression (copy: 17 us a user, anew: 25 us)
        self._primed: dict[int, Any] = {}

    def forget(self) -> None:
        """After a rollback: a dictionary made in the rolled-back transaction is gone."""
        self._dicts.clear()
        self._current.clear()
        self._primed.clear()

    def _dictionary(self, dict_id: int) -> bytes:
        found = self._dicts.get(dict_id)
        if found is None:
            row = self._conn.execute("SELECT data FROM zdicts WHERE id = ?", (dict_id,)).fetchone()
            if row is None:
                raise ValueError(f"cache record names compression dictionary {dict_id}, which the cache lacks")
            found = self._dicts[dict_id] = bytes(row[0])
        return found

    def prepare(self, kind: str, texts: list[bytes]) -> None:
        """Choose the dictionary for this page (call inside the page's transaction): a new
        one when there is none for ``kind`` yet, or the current one is smaller than this
        page could give."""
        current = self._current.get(kind)
        if current is None:
            row = self._conn.execute("SELECT id, length(data) FROM zdicts WHERE kind = ? ORDER BY id DESC LIMIT 1",
                                     (kind,)).fetchone()
            current, size = (row[0], row[1]) if row else (None, 0)
        else:
            size = len(self._dictionary(current))
        sample = b"".join(texts)[-DICT_BYTES:]
        if current is None or (size < DICT_BYTES and len(sample) > 2 * size):
            next_id = self._conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM zdicts").fetchone()[0]
            if next_id > 255:  # one byte names it; cannot happen while each new one must be twice as large
                raise RuntimeError("too many compression dictionaries")
            self._conn.execute("INSERT INTO zdicts(id, kind, data) VALUES (?, ?, ?)", (next_id, kind, sample))
            self._dicts[next_id] = sample
            current = next_id
        self._current[kind] = current

    def pack(self, kind: str, text: bytes) -> bytes:
        dict_id = self._current[kind]
        primed = self._primed.get(dict_id)
        if primed is None:
            primed = self._primed[dict_id] = zlib.compressobj(_LEVEL, zlib.DEFLATED, _RAW, zdict=self._dictionary(dict_id))
        packer = primed.copy()
        return bytes((dict_id,)) + packer.compress(text) + packer.flush()

    def unpack(self, blob: bytes | str) -> bytes:
        if isinstance(blob, str):  # a record stored as JSON text (small tables, older caches)
            return blob.encode()
        unpacker = zlib.decompressobj(_RAW, zdict=self._dictionary(blob[0]))
        return unpacker.decompress(blob[1:]) + unpacker.flush()

    def load(self, blob: bytes | str) -> dict[str, Any]:
        return json.loads(self.unpack(blob))
