"""The local SQLite cache: a read model of one profile, with search and a phone index."""

from corpdir.cache.aio import AsyncCache
from corpdir.cache.search import Hit, Searcher
from corpdir.cache.store import Cached, CacheStore

__all__ = ["AsyncCache", "Cached", "CacheStore", "Hit", "Searcher"]
