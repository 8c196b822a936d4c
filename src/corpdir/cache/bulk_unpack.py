"""Every record of a table decompressed on one Zstandard context (an export's one pass).

The Zstandard module (the standard library's from Python 3.14, its backport before)
makes a new decompression context for every frame: 13 us of the 17 us it takes to expand
one ~850-byte record, so reading 190k records for an LDIF export spent 3.3 s of CPU
there (docs/performance.md, the LDIF row). The system's libzstd, called through ctypes
with one context and each dictionary digested once, expands the same record in ~2 us.
Where the library is not found (another system), a record it cannot expand (larger than
the buffer, or an older cache's deflate blob) or a record stored as text, the cache's own
codec (:class:`corpdir.cache.blobs.Codec`) does the work: the result is the same bytes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sqlite3
from contextlib import contextmanager
from typing import Any, Iterator

from corpdir.cache.blobs import Codec

_CAPACITY = 1 << 18  # a record is ~1 KB; a larger one is expanded by the codec
_LIB: Any = None


def _library() -> Any:
    """libzstd with the four functions used here typed, or False when the system has none."""
    global _LIB
    if _LIB is None:
        name = "libzstd.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            found = ctypes.util.find_library("zstd")
            try:
                lib = ctypes.CDLL(found) if found else None
            except OSError:
                lib = None
        if lib is not None:
            lib.ZSTD_createDCtx.restype = ctypes.c_void_p
            lib.ZSTD_freeDCtx.argtypes = [ctypes.c_void_p]
            lib.ZSTD_createDDict.restype = ctypes.c_void_p
            lib.ZSTD_createDDict.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
            lib.ZSTD_freeDDict.argtypes = [ctypes.c_void_p]
            lib.ZSTD_decompress_usingDDict.restype = ctypes.c_size_t
            lib.ZSTD_decompress_usingDDict.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                                       ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
        _LIB = lib or False
    return _LIB


class _OneContext(Codec):
    """The cache's codec, expanding Zstandard blobs on one libzstd context of its own."""

    def __init__(self, conn: sqlite3.Connection, lib: Any) -> None:
        super().__init__(conn)
        self._lib, self._dctx = lib, lib.ZSTD_createDCtx()
        self._digested: dict[int, int | None] = {}
        self._buffer = ctypes.create_string_buffer(_CAPACITY)

    def _ddict(self, dict_id: int) -> int | None:
        found = self._dictionary(dict_id)
        # zstd's own dictionaries start with its magic number; a raw-text one is JSON text,
        # which cannot: libzstd tells the two apart the same way
        return self._lib.ZSTD_createDDict(found.data, len(found.data)) if found.codec in ("zstd", "zstd-raw") else None

    def unpack(self, blob: bytes | str) -> bytes:
        if isinstance(blob, bytes):
            dict_id = blob[0]
            digested = self._digested[dict_id] if dict_id in self._digested else self._digested.setdefault(
                dict_id, self._ddict(dict_id))
            if digested is not None:
                size = self._lib.ZSTD_decompress_usingDDict(self._dctx, self._buffer, _CAPACITY, blob[1:], len(blob) - 1,
                                                            digested)
                if size <= _CAPACITY:  # else an error code (a huge size_t)
                    return ctypes.string_at(self._buffer, size)
        return super().unpack(blob)

    def close(self) -> None:
        self._lib.ZSTD_freeDCtx(self._dctx)
        for digested in self._digested.values():
            if digested is not None:
                self._lib.ZSTD_freeDDict(digested)


@contextmanager
def expanding(conn: sqlite3.Connection) -> Iterator[Codec]:
    """A codec for the records of ``conn`` (as :class:`Codec`), for one thread and for many
    records, valid inside the ``with``: its context and dictionaries are freed after it."""
    lib = _library()
    if not lib:
        yield Codec(conn)
        return
    codec = _OneContext(conn, lib)
    try:
        yield codec
    finally:
        codec.close()
