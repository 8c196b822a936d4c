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


def _responses(op: Operation, schemas: _Schemas) -> dict[str, Any]:
    if op.response == "jpeg":
        ok: dict[str, Any] = {"description": "the image", "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}
    elif op.response is None:
        ok = {"description": "done (no body)"}
    else:
        ok = {"description": "success", "content": {"application/json": {"schema": schemas.of(op.response, "serialization")}}}
    error = {"description": "the error object of spec section 7",
             "content": {"application/json": {"schema": schemas.of(ErrorObject, "serialization")}}}
    return {str(op.success): ok, "default": error}


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
            "responses": _responses(op, schemas),
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
