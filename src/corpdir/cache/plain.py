"""Records read from the cache without their models, for the TUI's first screen.

The first rows and the top of the division tree are painted before pydantic is imported
(~90 ms of the start: docs/performance.md, "TUI start"). A :class:`Plain` record answers
the attributes a list row or a tree label reads (the record's fields as the cache stores
them, None when absent) and keeps the stored JSON, so :func:`as_model` makes the real model
from it, validated as every other read of the cache validates it. The app turns the first
screen's plain records into models as soon as its settings are checked, right after the
first frame (:meth:`corpdir.tui.screens.directory.DirectoryScreen.records_checked`).
"""

from __future__ import annotations

import json
from typing import Any


class Plain:
    """A stored record's fields as attributes (nested objects as Plain too, with no kind:
    only a whole record is made a model); ``kind`` is its model's module and name in
    :mod:`corpdir.spec` ("user.User"), ``text`` the JSON it was read from."""

    __slots__ = ("_data", "_json", "_kind")

    def __init__(self, kind: str, data: dict[str, Any], text: str | bytes = b"") -> None:
        self._kind, self._data, self._json = kind, data, text

    @classmethod
    def from_json(cls, kind: str, text: str | bytes) -> Plain:
        return cls(kind, json.loads(text), text)

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("_", "model_")):  # no model's API: ``hasattr(record, "model_dump")`` says so
            raise AttributeError(name)
        return _plain(self._data.get(name))

    def __repr__(self) -> str:
        return f"Plain({self._kind})"


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return Plain("", value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def is_plain(record: Any) -> bool:
    return isinstance(record, Plain)


def as_model(record: Any) -> Any:
    """``record``'s model when it is :class:`Plain` (imports it, and pydantic), else itself."""
    if not isinstance(record, Plain):
        return record
    from importlib import import_module

    module, name = record._kind.rsplit(".", 1)
    model = getattr(import_module(f"corpdir.spec.{module}"), name)
    return model.model_validate_json(record._json)
