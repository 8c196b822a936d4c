"""/openapi.json generated from the operation table (the served variant's operations)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from corpdir.spec.constraints import PUBLISHED_VARIANT
from corpdir.spec.contact import BUSINESS_CARD_FILE_FIELD
from corpdir.spec.errors import ErrorObject
from corpdir.spec.operations import Operation
from corpdir.spec.variants import Variant

_REF = "#/components/schemas/{model}"


class _Schemas:
    def __init__(self) -> None:
        self.components: dict[str, Any] = {}

    def of(self, model: type[BaseModel], mode: str = "validation") -> dict[str, Any]:
        schema = model.model_json_schema(ref_template=_REF, mode=mode)
        self.components.update(schema.pop("$defs", {}))
        name = model.__name__.replace("[", "_").replace("]", "")
        self.components[name] = schema
        return {"$ref": _REF.format(model=name)}


def _parameters(op: Operation, schemas: _Schemas) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = [
        {"name": p, "in": "path", "required": True, "schema": {"type": "integer", "format": "int64"}} for p in op.path_params
    ]
    if op.query is not None and op.body_kind != "multipart":
        schema = op.query.model_json_schema(ref_template=_REF)
        schemas.components.update(schema.pop("$defs", {}))
        required = set(schema.get("required", []))
        for name, prop in schema.get("properties", {}).items():
            if prop.get("not") == {}:  # a filter this variant does not have
                continue
            entry: dict[str, Any] = {"name": name, "in": "query", "required": name in required, "schema": prop}
            if prop.get("type") == "array":
                entry.update(style="form", explode=True)
            params.append(entry)
    return params


def _inline(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = prop.get("$ref")
    if ref is None:
        return prop
    return {**defs[ref.rsplit("/", 1)[1]], **{k: v for k, v in prop.items() if k != "$ref"}}


def _request_body(op: Operation, schemas: _Schemas) -> dict[str, Any] | None:
    if op.body_kind == "json" and op.body is not None:
        return {"required": True, "content": {"application/json": {"schema": schemas.of(op.body)}}}
    if op.body_kind == "jpeg":
        return {"required": True, "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}
    if op.body_kind == "multipart" and op.query is not None:
        form = op.query.model_json_schema(ref_template=_REF)
        defs = form.pop("$defs", {})
        # form fields are inlined: a form part is text, and schemathesis sent empty parts
        # for enumerations behind a $ref
        properties = {name: _inline(prop, defs) for name, prop in form.get("properties", {}).items()}
        form["properties"] = {BUSINESS_CARD_FILE_FIELD: {"type": "string", "format": "binary"}, **properties}
        form["required"] = [BUSINESS_CARD_FILE_FIELD, *form.get("required", [])]
        encoding = {BUSINESS_CARD_FILE_FIELD: {"contentType": "image/jpeg"}}
        return {"required": True, "content": {"multipart/form-data": {"schema": form, "encoding": encoding}}}
    return None


_REFERENCE = "a reference to a {} that does not exist"
_LAST_ADMIN = "the change would leave no enabled ADMIN_COMPANY user"
# Answers to requests the schema calls valid, which the server's data decides (the error
# table of http-contract.md); each is marked x-valid-request-refusal, the one kind of
# refusal tests/schemathesis_hooks.py accepts for schema-valid data.
_REFUSALS: dict[str, dict[int, list[str]]] = {
    "U2": {409: ["loginId is already used"], 422: [_REFERENCE.format("division or adapter setting")]},
    "U4": {422: [_REFERENCE.format("division or adapter setting"), _LAST_ADMIN],
           400: ["NOT_SETTABLE_FOR_USER_TYPE: a field section 2.4 does not allow for the stored user's type "
                 "(an edit that names no userType is held to it)"]},
    "U5": {422: [_LAST_ADMIN]},
    "U10": {422: [_REFERENCE.format("custom column")]},
    "D2": {409: ["divisionCode is already used"], 422: [_REFERENCE.format("parent division")]},
    "D4": {409: ["divisionCode is already used"],
           422: [_REFERENCE.format("parent division"), "the division would move under itself or its own descendant"]},
    "X2": {422: [_REFERENCE.format("folder")]},
    "X5": {422: [_REFERENCE.format("folder")]},
}
# What else each status means, when the operation can answer it at all
_MEANINGS = {
    400: "INVALID_ARGUMENT: a parameter or body field breaks the spec's rules (details name them)",
    401: "UNAUTHENTICATED: no key, an unknown key, or the key's user is disabled",
    403: "API_PERMISSION_DENIED, RESOURCE_PERMISSION_DENIED or ACCESS_DENIED",
    404: "NOT_FOUND: the path's resource does not exist",
    406: "NOT_ACCEPTABLE: the Accept header excludes what this operation answers",
    413: "PAYLOAD_TOO_LARGE: the body is over its size or item limit, or the image over the pixel limit",
    415: "UNSUPPORTED_MEDIA_TYPE: the body is not of the operation's media type (a JPEG by its content)",
    429: "RESOURCE_EXHAUSTED: over the rate limit (Retry-After says when to try again)",
}


def _error_statuses(op: Operation, variant: Variant) -> list[int]:
    """Every error status ``op`` can answer in ``variant``."""
    statuses = {401, 403, 406, 429, *_REFUSALS.get(op.code, {})}
    if op.path_params or op.query is not None or op.body_kind is not None:
        statuses.add(400)
    if op.path_params:
        statuses.add(404)
    if op.body_kind is not None:
        statuses.add(415)
        if variant.payload_too_large:
            statuses.add(413)
    return sorted(statuses)


def _responses(op: Operation, variant: Variant, schemas: _Schemas) -> dict[str, Any]:
    if op.response == "jpeg":
        ok: dict[str, Any] = {"description": "the image", "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}
    elif op.response is None:
        ok = {"description": "done (no body)"}
    else:
        ok = {"description": "success", "content": {"application/json": {"schema": schemas.of(op.response, "serialization")}}}
    error = {"application/json": {"schema": schemas.of(ErrorObject, "serialization")}}
    responses = {str(op.success): ok}
    for status in _error_statuses(op, variant):
        reasons = _REFUSALS.get(op.code, {}).get(status, [])
        meaning = "; ".join([*reasons, *([_MEANINGS[status]] if status in _MEANINGS else [])])
        responses[str(status)] = {"description": meaning, "content": error}
        if reasons:
            responses[str(status)]["x-valid-request-refusal"] = reasons
    return responses


def build_openapi(operations: list[Operation], variant: Variant, title: str = "corpdir reference directory service") -> dict[str, Any]:
    """The description of ``operations`` with every rule the server enforces that JSON
    Schema can state, in ``variant``'s form (``corpdir.spec.constraints.PUBLISHED_VARIANT``)."""
    token = PUBLISHED_VARIANT.set(variant)
    try:
        return _build(operations, variant, title)
    finally:
        PUBLISHED_VARIANT.reset(token)


def _build(operations: list[Operation], variant: Variant, title: str) -> dict[str, Any]:
    schemas = _Schemas()
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        entry: dict[str, Any] = {
            "operationId": op.code,
            "summary": f"{op.code}: {op.purpose}",
            "description": f"Permission: {op.permission.value}. Rate-limit cost: {op.tokens} token(s).",
            "tags": [op.code[0]],
            "parameters": _parameters(op, schemas),
            "responses": _responses(op, variant, schemas),
            "security": [{"bearer": []}, {"apiKey": []}],
        }
        if (body := _request_body(op, schemas)) is not None:
            entry["requestBody"] = body
        paths.setdefault(op.path, {})[op.method.lower()] = entry
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": f"variant {variant.name}"},
        "servers": [{"url": "/"}, {"url": "/v1"}],
        "paths": paths,
        "components": {
            "schemas": schemas.components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            },
        },
    }
