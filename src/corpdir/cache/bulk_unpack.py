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
from contextlib import contextmanager
from typing import Any, Callable, Iterator

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


@contextmanager
def unpacker(codec: Codec) -> Iterator[Callable[[bytes | str], bytes]]:
    """A function from a stored blob to its JSON bytes (as ``codec.unpack``), for one
    thread, valid inside the ``with``: the context and dictionaries are freed after it."""
    lib = _library()
    if not lib:
        yield codec.unpack
        return
    dctx = lib.ZSTD_createDCtx()
    ddicts: dict[int, int | None] = {}
    buffer = ctypes.create_string_buffer(_CAPACITY)
    expand, string_at = lib.ZSTD_decompress_usingDDict, ctypes.string_at

    def ddict(dict_id: int) -> int | None:
        kind, data = codec.dictionary(dict_id)
        # zstd's own dictionaries start with its magic number; a raw-text one is JSON text,
        # which cannot: libzstd tells the two apart the same way
        return lib.ZSTD_createDDict(data, len(data)) if kind in ("zstd", "zstd-raw") else None

    def unpack(blob: bytes | str) -> bytes:
        if isinstance(blob, bytes):
            digested = ddicts[blob[0]] if blob[0] in ddicts else ddicts.setdefault(blob[0], ddict(blob[0]))
            if digested is not None:
                size = expand(dctx, buffer, _CAPACITY, blob[1:], len(blob) - 1, digested)
                if size <= _CAPACITY:  # else an error code (a huge size_t)
                    return string_at(buffer, size)
        return codec.unpack(blob)

    try:
        yield unpack
    finally:
        lib.ZSTD_freeDCtx(dctx)
        for digested in ddicts.values():
            if digested is not None:
                lib.ZSTD_freeDDict(digested)
