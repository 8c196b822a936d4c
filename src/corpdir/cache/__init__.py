"""The local SQLite cache: a read model of one profile, with search and a phone index.

Names are loaded on first use, so ``corpdir.cache.numbers`` (the fast caller-ID path)
does not pay for pydantic models.
"""

from __future__ import annotations

from corpdir.exports import lazy

_EXPORTS = {
    "AsyncCache": "corpdir.cache.aio",
    "Cached": "corpdir.cache.store_base",
    "CacheStore": "corpdir.cache.store",
    "Hit": "corpdir.cache.search",
    "Searcher": "corpdir.cache.search",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy(__name__, _EXPORTS)
