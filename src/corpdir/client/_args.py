"""How the typed methods turn their arguments into one query or body.

A method takes a request model, a mapping, keyword fields, or a mix; these helpers make
that one value for :meth:`corpdir.client._base.BaseClient._call`, so every resource
module shapes its arguments the same way.
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic import BaseModel

from corpdir.spec import OMIT, QueryModel, RequestModel

Query = QueryModel | Mapping[str, Any] | None
Body = RequestModel | Mapping[str, Any] | None
Record = BaseModel | Mapping[str, Any]


def given(values: Mapping[str, Any]) -> dict[str, Any]:
    """A mapping of fields without the ones not given: None and OMIT mean "leave out"."""
    return {k: v for k, v in values.items() if v is not None and v is not OMIT}


def entries(values: Any) -> list[Any]:
    """The list of a bulk body; a single entry (a mapping, a model or one string) is a
    list of one, not a list of its keys or characters."""
    if isinstance(values, (str, bytes, Mapping, BaseModel)):
        return [values]
    return list(values)


def merge(base: Any, extra: Mapping[str, Any]) -> Any:
    """A model/mapping argument plus keyword fields, as one mapping (or the model)."""
    if not extra:
        return base
    if base is None:
        return dict(extra)
    if isinstance(base, BaseModel):
        base = base.model_dump(exclude_unset=True)
    return {**base, **extra}


def get(record: Any, name: str) -> Any:
    """A field of a record given as a model or a mapping (None if the record or field is absent)."""
    if record is None:
        return None
    if isinstance(record, Mapping):
        return record.get(name)
    return getattr(record, name, None)
