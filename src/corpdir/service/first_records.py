"""The first screen's plain records (:mod:`corpdir.cache.plain`), for the front ends: which
records are plain, and their models once the settings are checked."""

from corpdir.cache.plain import as_model, is_plain

__all__ = ["as_model", "is_plain"]
