"""Records stored compressed: a person's JSON in ~150 bytes instead of ~850.

A directory record is small and its key names and values repeat from one record to the
next ("fullnameAlphabet", "REGULAR_USER", the company's mail domain), so compressing one
record alone saves little (~35%), while a *dictionary* drawn from real records of the
same cache saves ~80%. Since schema 7 records are compressed with Zstandard and a
dictionary trained on the cache's own records (``zstd.train_dict``): measured on the
demo tenant's 10k users, 2.3 us and 151 bytes a user against deflate with a preset
8 KiB dictionary's 17-24 us and 181-193 bytes (bench/cache_write_bench.py; deflate was a
tenth of a record's write time). A batch too small to train on (a record saved from a
form before any sync) gets a dictionary of its raw text instead, replaced by a trained
one as soon as a page is large enough.

A blob is one byte naming its dictionary, then the compressed frame. Dictionaries live
in the ``zdicts`` table with the codec they are for and never change once written; a
later, larger page makes a new one while the current was drawn from too few records,
and older blobs keep naming theirs. Blobs written before schema 7 name deflate
dictionaries and stay readable. Kept free of pydantic: `corpdir lookup` reads records
through here, and imports the Zstandard module only when it reads a record.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zlib

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any

DICT_BYTES = 16384  # trained: 151 bytes a user (8 KiB: 176; 32 KiB: 137 but a slower first page)
TRAIN_SAMPLES = 1000  # records a dictionary is trained on at most; one trained on fewer is replaced by a larger page
MIN_TRAIN = 20  # fewer records than this: a raw-text dictionary (zstd cannot train on a handful)
_LEVEL = 3
_RAW = -15  # deflate blobs of schema 6: raw deflate, no zlib header or checksum


_ZSTD: Any = None


def _zstd() -> Any:
    """The Zstandard module: the standard library's from Python 3.14, its backport before.
    Looked up once: a failed import is not remembered, and trying ``compression`` on every
    record read cost 30 us of a 39 us read."""
    global _ZSTD
    if _ZSTD is None:
        if sys.version_info >= (3, 14):
            from compression import zstd  # type: ignore[import-not-found]
        else:
            from backports import zstd  # type: ignore[no-redef]
        _ZSTD = zstd
    return _ZSTD


class _Dictionary:
    """One row of ``zdicts``, ready to use: its codec ('zstd', 'zstd-raw' or 'deflate')."""

    def __init__(self, codec: str, data: bytes, samples: int) -> None:
        self.codec, self.data, self.samples = codec, data, samples
        self._packer: Any = None
        self._digested: Any = None

    def _zstd_dict(self) -> Any:
        if self._digested is None:
            zstd = _zstd()
            self._digested = zstd.ZstdDict(self.data, is_raw=self.codec == "zstd-raw").as_digested_dict
        return self._digested

    def pack(self, text: bytes) -> bytes:
        if self.codec == "deflate":  # a dictionary of an older cache still current for its kind
            packer = zlib.compressobj(6, zlib.DEFLATED, _RAW, zdict=self.data)
            return packer.compress(text) + packer.flush()
        if self._packer is None:
            zstd = _zstd()
            p = zstd.CompressionParameter
            self._packer = zstd.ZstdCompressor(options={p.compression_level: _LEVEL, p.dict_id_flag: 0,
                                                         p.checksum_flag: 0, p.content_size_flag: 0},
                                               zstd_dict=self._zstd_dict())
        return self._packer.compress(text, self._packer.FLUSH_FRAME)

    def unpack(self, data: bytes) -> bytes:
        if self.codec == "deflate":
            unpacker = zlib.decompressobj(_RAW, zdict=self.data)
            return unpacker.decompress(data) + unpacker.flush()
        return _zstd().decompress(data, zstd_dict=self._zstd_dict())


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class Codec:
    """Packs and unpacks records of one cache; dictionaries are read from ``zdicts`` once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._dicts: dict[int, _Dictionary] = {}
        self._current: dict[str, int] = {}  # kind -> id of the dictionary new blobs use

    def forget(self) -> None:
        """After a rollback: a dictionary made in the rolled-back transaction is gone."""
        self._dicts.clear()
        self._current.clear()

    def _dictionary(self, dict_id: int) -> _Dictionary:
        found = self._dicts.get(dict_id)
        if found is None:
            row = self._conn.execute("SELECT codec, data, samples FROM zdicts WHERE id = ?", (dict_id,)).fetchone()
            if row is None:
                raise ValueError(f"cache record names compression dictionary {dict_id}, which the cache lacks")
            found = self._dicts[dict_id] = _Dictionary(row[0], bytes(row[1]), row[2])
        return found

    def prepare(self, kind: str, texts: list[bytes]) -> None:
        """Choose the dictionary for this page (call inside the page's transaction): a new
        one when there is none for ``kind`` yet, or the current one is an older cache's
        (deflate) or was drawn from fewer records than this page could give it."""
        # read again each page, not remembered: another process (a sync beside the TUI) may
        # have made a better one since, and a new one must be drawn from more than it was
        row = self._conn.execute("SELECT id FROM zdicts WHERE kind = ? ORDER BY id DESC LIMIT 1", (kind,)).fetchone()
        current_id = row[0] if row else None
        current = self._dictionary(current_id) if current_id is not None else None
        samples = min(len(texts), TRAIN_SAMPLES)
        if current is None or (current.samples < TRAIN_SAMPLES and samples >= max(MIN_TRAIN, 2 * current.samples)):
            codec, data = self._draw(texts[-samples:])
            next_id = self._conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM zdicts").fetchone()[0]
            if next_id > 255:  # one byte names it; cannot happen while each new one must be drawn from twice as many
                raise RuntimeError("too many compression dictionaries")
            self._conn.execute("INSERT INTO zdicts(id, kind, data, codec, samples) VALUES (?, ?, ?, ?, ?)",
                               (next_id, kind, data, codec, samples))
            self._dicts[next_id] = _Dictionary(codec, data, samples)
            current_id = next_id
        self._current[kind] = current_id

    @staticmethod
    def _draw(texts: list[bytes]) -> tuple[str, bytes]:
        """A dictionary trained on ``texts``, or their raw text when they are too few."""
        if len(texts) >= MIN_TRAIN:
            zstd = _zstd()
            try:
                return "zstd", zstd.train_dict(texts, DICT_BYTES).dict_content
            except zstd.ZstdError:  # records too alike or too short to train on
                pass
        return "zstd-raw", b"".join(texts)[-DICT_BYTES:]

    def pack(self, kind: str, text: bytes) -> bytes:
        dict_id = self._current[kind]
        return bytes((dict_id,)) + self._dictionary(dict_id).pack(text)

    def unpack(self, blob: bytes | str) -> bytes:
        if isinstance(blob, str):  # a record stored as JSON text (small tables, older caches)
            return blob.encode()
        return self._dictionary(blob[0]).unpack(blob[1:])

    def load(self, blob: bytes | str) -> dict[str, Any]:
        return json.loads(self.unpack(blob))
