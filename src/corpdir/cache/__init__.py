"""The local SQLite cache: a read model of one profile, with search and a phone index.

Names are loaded on first use, so ``corpdir.cache.numbers`` (the fast caller-ID path)
does not pay for pydantic models.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "AsyncCache": "corpdir.cache.aio",
    "Cached": "corpdir.cache.store_base",
    "CacheStore": "corpdir.cache.store",
    "Hit": "corpdir.cache.search",
    "Searcher": "corpdir.cache.search",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        from importlib import import_module  # here: the importlib package is ~2 M instructions of `corpdir lookup`

        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'corpdir.cache' has no attribute {name!r}")
