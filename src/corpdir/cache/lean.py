"""The C halves of sqlite3, json and Zstandard, for a process that only reads the cache.

`corpdir lookup` answers a PBX once per call, and on a cache hit the public modules'
Python halves cost more than the lookup itself (callgrind, one cache hit, clean venv):
``sqlite3`` imports ``datetime`` for adapters a reader never uses (~7 M instructions),
``json.decoder`` imports and compiles ``re`` (with ``enum``: ~26 M), and the Zstandard
package imports ``enum``, ``io`` and its file classes to offer one function (~23 M).
The C modules behind them (``_sqlite3``, ``_json``, ``_zstd``) are what the public
modules call; each is used here only where the public module would answer the same, and
any of them missing or changed falls back to the public module (docs/decisions.md,
"`corpdir lookup` reads through the C halves").
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any

try:
    import _sqlite3 as sqlite3  # the same Connection, Row and errors as the public module's
except ImportError:  # an interpreter built without it has no public sqlite3 either; keep the public error
    import sqlite3  # type: ignore[no-redef]

__all__ = ["loads", "sqlite3", "zstd", "zstd_decompress"]

_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder()``: its defaults."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = _CONSTANTS.__getitem__
    memo: dict[str, str] = {}


_SCAN: Any = None


def loads(data: bytes | str) -> Any:
    """``json.loads`` of a record corpdir wrote (compact, no surrounding blanks); anything
    else (blanks, trailing text, a syntax error) goes to ``json.loads`` for its answer or
    its error."""
    global _SCAN
    text = data.decode() if isinstance(data, bytes) else data
    if _SCAN is None:
        try:
            from _json import make_scanner
        except ImportError:
            make_scanner = None
        _SCAN = make_scanner(_Context()) if make_scanner is not None else False
    if _SCAN and text[:1] in ("{", "["):
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            pass
        else:
            if end == len(text):
                return value
    import json

    return json.loads(text)


_ZSTD: Any = None


def zstd() -> Any:
    """The Zstandard C module (``ZstdDecompressor``, ``ZstdDict``, ``ZstdError``): the
    standard library's ``_zstd`` from Python 3.14; before, the backport's, loaded from its
    file without running the package's ``__init__`` and kept in ``sys.modules`` under its
    own name, so a later ``import backports.zstd`` shares it (one set of types). None: not
    loadable so (the caller uses the public module)."""
    global _ZSTD
    if _ZSTD is None:
        _ZSTD = _load_zstd() or False
    return _ZSTD or None


def _load_zstd() -> Any:
    if sys.version_info >= (3, 14):
        try:
            import _zstd  # type: ignore[import-not-found]
        except ImportError:
            return None
        return _zstd
    name = "backports.zstd._zstd"
    if name in sys.modules or "backports.zstd" in sys.modules:
        return sys.modules.get(name)
    try:
        import backports  # a namespace package: no code of its own
        from _frozen_importlib import module_from_spec  # what importlib.util re-exports
        from _frozen_importlib_external import ExtensionFileLoader, PathFinder  # importlib.machinery's

        spec = PathFinder.find_spec(name, [f"{folder}/zstd" for folder in backports.__path__])
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader):  # a pure-Python build (PyPy's cffi)
            return None
        module = module_from_spec(spec)
        spec.loader.exec_module(module)
        module.ZstdDecompressor, module.ZstdDict, module.ZstdError  # noqa: B018 - the names used here
    except (ImportError, AttributeError):
        return None
    sys.modules[name] = module
    return module


def zstd_decompress(data: bytes, digested: Any) -> bytes:
    """``zstd.decompress(data, zstd_dict=digested)`` by the C module: every frame in turn."""
    module = _ZSTD
    out = []
    while True:
        reader = module.ZstdDecompressor(digested)
        out.append(reader.decompress(data))
        if not reader.eof:
            raise module.ZstdError("Compressed data ended before the end-of-stream marker was reached")
        data = reader.unused_data
        if not data:
            return b"".join(out)
