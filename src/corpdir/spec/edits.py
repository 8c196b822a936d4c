"""What an edit sends: the rules that turn "the record as loaded" and "what the user
typed" into a request body. A rule of the interface (spec section 1: the edit operations
change only the fields that are sent), so the client's ``edit_*`` methods and the TUI's
forms share it; nothing here imports Textual or httpx.

- :func:`request_form`: a loaded record in a request model's shape (``divisions`` becomes
  ``divisionIds`` ...), what an edit form starts from;
- :func:`diff`: only the fields that differ. A field equal to the original is left out
  (untouched); a text field the user emptied is sent as ``''``, an emptied list as ``[]``;
  a number, boolean or object cannot be cleared: emptying one raises :class:`CannotClear`;
- :func:`edit_body` and :func:`create_body`: what a form sends on save, from its values
  and which of them the user touched.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Mapping, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from corpdir.spec.common import RequestModel

# Response shape -> (request field, converter) where the two differ (spec 2.4).
RESPONSE_FORMS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "divisions": ("divisionIds", lambda v: [d["divisionId"] for d in v]),
    "collaborations": (
        "chatSettingList",
        lambda v: [{"chatSettingSeq": c.get("chatSettingSeq"), "chatAccountId": c.get("chatAccountId")} for c in v],
    ),
    "tenantCucmAdapterSettings": ("tenantCucmAdapterSettingsId", lambda v: v.get("tenantCucmAdapterSettingsId")),
    "tenantAlphaAdapterSettings": ("tenantAlphaAdapterSettingsId", lambda v: v.get("tenantAlphaAdapterSettingsId")),
}


class CannotClear(ValueError):
    """An edit empties a field the service cannot clear (a number, a yes/no, an object):
    the field is named, so a form marks it and a client reports it, without parsing text."""

    def __init__(self, field: str) -> None:
        super().__init__(f"{field} cannot be cleared; give it a value instead")
        self.field = field


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


def _request_form(values: dict[str, Any], model: type[BaseModel] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key in RESPONSE_FORMS and (model is None or key not in model.model_fields):
            target, convert = RESPONSE_FORMS[key]
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


def is_empty(value: Any) -> bool:
    """Nothing given: None, an empty text, list or object."""
    return value is None or value == "" or value == [] or value == {}


def diff(
    original: BaseModel | Mapping[str, Any],
    edited: BaseModel | Mapping[str, Any],
    model: type[BaseModel] | None = None,
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
        if new is None or new == "" or new == []:
            if old is None or old == "" or old == []:
                continue
            if isinstance(old, str):
                changes[key] = ""
            elif isinstance(old, list):
                changes[key] = []
            else:
                raise CannotClear(key)
        elif new != old:
            changes[key] = new
    return changes


def request_form(record: BaseModel | Mapping[str, Any] | None, model: type[BaseModel]) -> dict[str, Any]:
    """A loaded record in ``model``'s request shape (what an edit form starts from):
    ``divisions`` -> ``divisionIds``, response-only fields dropped, None left out."""
    if record is None:
        return {}
    return {k: v for k, v in _request_form(_as_dict(record), model).items() if v is not None}


def edit_body(original: Mapping[str, Any], values: Mapping[str, Any], touched: Collection[str],
              model: type[BaseModel], readonly: Collection[str] = ()) -> dict[str, Any]:
    """An edit's body: the touched fields (``touched`` names parts of objects as
    ``address.city``) that differ from ``original``. An object keeps the parts of the
    original the user did not touch; a part they emptied is left out of it."""
    touched_top = {k.partition(".")[0] for k in touched}
    edited = {k: v for k, v in values.items() if k in touched_top and k not in readonly}
    for key, value in list(edited.items()):
        before = original.get(key)
        if isinstance(value, dict) and isinstance(before, dict):
            kept = {s: x for s, x in before.items() if s not in value and f"{key}.{s}" not in touched}
            edited[key] = {**kept, **value}
    return diff(original, edited, model)


def create_body(values: Mapping[str, Any], touched: Collection[str], model: type[BaseModel], *,
                initial: Collection[str] = (), readonly: Collection[str] = ()) -> dict[str, Any]:
    """A create's body: every field filled in. A yes/no is sent when the user set it, the
    operation requires it, or the form began with it (an untouched "no" is not a choice)."""
    touched_top = {k.partition(".")[0] for k in touched}
    required = {n for n, f in model.model_fields.items() if f.is_required()}
    body: dict[str, Any] = {}
    for key, value in values.items():
        if key in readonly:
            continue
        if isinstance(value, bool):
            if key in touched_top or key in required or key in initial:
                body[key] = value
        elif not is_empty(value):
            body[key] = value
    return body
