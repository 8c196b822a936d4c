"""Partial edits: turn "the record as loaded" and "the record as edited" into the body.

The service's edit operations change only the fields that are sent (spec section 1), so
an edit form must send what the user changed and nothing else: resending an untouched
field would overwrite a change someone else made meanwhile. :func:`diff` compares the two
in request form (response-only shapes such as ``divisions`` become ``divisionIds``) and
returns only the fields that differ:

- a field equal to the original is left out (OMIT: unchanged);
- a text field the user emptied (``None`` or ``''`` where the original had text) is sent
  as ``''``, which clears it on the service; an emptied list is sent as ``[]``;
- a number, boolean or object cannot be cleared: emptying one raises ValueError.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from corpdir.spec import RequestModel

# Response shape -> (request field, converter) where the two differ (spec 2.4).
_RESPONSE_FORMS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "divisions": ("divisionIds", lambda v: [d["divisionId"] for d in v]),
    "collaborations": (
        "chatSettingList",
        lambda v: [{"chatSettingSeq": c.get("chatSettingSeq"), "chatAccountId": c.get("chatAccountId")} for c in v],
    ),
    "tenantCucmAdapterSettings": ("tenantCucmAdapterSettingsId", lambda v: v.get("tenantCucmAdapterSettingsId")),
    "tenantAlphaAdapterSettings": ("tenantAlphaAdapterSettingsId", lambda v: v.get("tenantAlphaAdapterSettingsId")),
}


def _as_dict(record: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(record, BaseModel):
        if isinstance(record, RequestModel):
            return record.model_dump(mode="json", exclude_unset=True)
        return record.model_dump(mode="json")
    return {k: to_jsonable_python(v) for k, v in record.items()}


def _submodel(annotation: Any) -> type[BaseModel] | None:
    """The request model inside a field's type (``Address``, ``list[ChatSetting]`` ...)."""
    stack = [annotation]
    while stack:
        t = stack.pop()
        if isinstance(t, type) and issubclass(t, BaseModel):
            return t
        if get_origin(t) is not None or hasattr(t, "__metadata__"):
            stack.extend(a for a in get_args(t) if not isinstance(a, (int, str)))
    return None


def _request_form(values: dict[str, Any], model: type[RequestModel] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key in _RESPONSE_FORMS and (model is None or key not in model.model_fields):
            target, convert = _RESPONSE_FORMS[key]
            out[target] = convert(value) if value is not None else None
        else:
            out[key] = value
    if model is None:
        return out
    shaped: dict[str, Any] = {}
    for key, value in out.items():
        if key not in model.model_fields:
            continue  # response-only (userId, updatedAt, ...): never part of an edit
        sub = _submodel(model.model_fields[key].annotation)
        if sub is not None and value is not None:
            value = _shape(value, sub)
        shaped[key] = value
    return shaped


def _shape(value: Any, sub: type[BaseModel]) -> Any:
    """Drop response-only keys (customColumnTitle ...) and None from nested objects."""
    if isinstance(value, list):
        return [_shape(v, sub) for v in value]
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k in sub.model_fields and v is not None}
    return value


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == []


def diff(
    original: BaseModel | Mapping[str, Any],
    edited: BaseModel | Mapping[str, Any],
    model: type[RequestModel] | None = None,
) -> dict[str, Any]:
    """The fields of ``edited`` that differ from ``original``, ready to send as an edit.

    ``edited`` may be a whole record (every field is compared) or a mapping of just the
    fields a form touched. With ``model`` (e.g. ``UserEdit``) only the fields that edit
    takes are compared, in its request form.
    """
    before = _request_form(_as_dict(original), model)
    after = _request_form(_as_dict(edited), model)
    changes: dict[str, Any] = {}
    for key, new in after.items():
        old = before.get(key)
        if _empty(new):
            if _empty(old):
                continue
            if isinstance(old, str):
                changes[key] = ""
            elif isinstance(old, list):
                changes[key] = []
            else:
                raise ValueError(f"{key} cannot be cleared; give it a value instead")
        elif new != old:
            changes[key] = new
    return changes


def request_form(record: BaseModel | Mapping[str, Any] | None, model: type[RequestModel]) -> dict[str, Any]:
    """A loaded record in ``model``'s request shape (what an edit form starts from):
    ``divisions`` -> ``divisionIds``, response-only fields dropped, None left out."""
    if record is None:
        return {}
    return {k: v for k, v in _request_form(_as_dict(record), model).items() if v is not None}
