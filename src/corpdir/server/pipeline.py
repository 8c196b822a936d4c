"""The one request pipeline every operation goes through.

route -> rate limit -> 404/405 -> Accept (406) -> caller address (403) -> key (401/403)
-> operation range (403) -> body size (413) -> parse and validate with corpdir.spec (400,
415) -> handler (in a worker thread: SQLite never blocks the event loop) -> answer.
Whatever happens, the answer carries the rate-limit headers, and an error answer is the
spec's error object; an unexpected exception becomes 500 without a traceback in the body.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from corpdir.server.auth import AllowList, Caller, api_key_from, authenticate
from corpdir.server.errors import ApiError, error_response, invalid, not_found
from corpdir.server.images import check_jpeg
from corpdir.server.limits import JsonItemCounter, body_too_large, too_large
from corpdir.server.ratelimit import Charge, RateLimiter
from corpdir.server.routing import Match, RouteTable, accepts
from corpdir.server.settings import ServerSettings
from corpdir.server.storage import Storage
from corpdir.spec.common import INTEGER_TEXT, INTEGER_WORDS, QueryModel
from corpdir.spec.contact import BUSINESS_CARD_FILE_FIELD
from corpdir.spec.errors import ErrorDetail, ErrorStatus, SpecViolation
from corpdir.spec.operations import Operation, validate_body, validate_query
from corpdir.spec.variants import Variant

log = logging.getLogger("corpdir.server")

JPEG = "image/jpeg"
JSON = "application/json"


@dataclass
class Call:
    """Everything a handler needs about one request."""

    op: Operation
    variant: Variant
    settings: ServerSettings
    storage: Storage
    caller: Caller
    path: dict[str, int]
    query: QueryModel | None  # the validated query, or X5's form fields
    raw: bytes = b""
    params: Mapping[str, str] = field(default_factory=dict)  # raw query (operations without a query model)
    upload: bytes | None = None  # X5 file part, U7/X7 body

    def body(self, context: Mapping[str, Any] | None = None) -> Any:
        return validate_body(self.op.code, self.raw, variant=self.variant, json=True, context=context)

    def fields(self, context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The sent body fields, JSON-typed (only what was sent: edits are partial)."""
        return self.body(context).model_dump(mode="json", exclude_unset=True)

    def now(self) -> float:
        return self.settings.clock()


Handler = Callable[[Call], Any]


def _list_fields(model: type[QueryModel]) -> frozenset[str]:
    return frozenset(name for name, f in model.model_fields.items() if getattr(f.annotation, "__origin__", None) is list)


def query_dict(model: type[QueryModel], items: list[tuple[str, str]]) -> dict[str, Any]:
    """Repeated keys are arrays (``select=a&select=b``); a scalar keeps its last value."""
    lists = _list_fields(model)
    out: dict[str, Any] = {}
    for key, value in items:
        if key in lists:
            out.setdefault(key, []).append(value)
        else:
            out[key] = value
    return out


class Pipeline:
    def __init__(self, settings: ServerSettings, storage: Storage, variant: Variant, handlers: Mapping[str, Handler]) -> None:
        self.settings = settings
        self.storage = storage
        self.variant = variant
        self.routes = RouteTable(variant)
        self.handlers = handlers
        self.limiter = RateLimiter(settings.rate_limit, settings.clock)
        self.allow = AllowList(settings.allowed_networks)
        missing = [op.code for op in self.routes.operations if op.code not in handlers]
        assert not missing, f"operations without a handler: {missing}"

    async def __call__(self, request: Request, fixed: Response | None = None) -> Response:
        """Answer ``request``; ``fixed`` is an answer made elsewhere (/openapi.json) that
        still pays its token and carries the rate-limit headers."""
        headers: dict[str, str] = {}
        try:
            match = None if fixed else self.routes.match(request.method, request.url.path)
            cost = match.operation.tokens if match and match.operation else 1
            key = api_key_from(request.headers)
            client = request.client.host if request.client else "unknown"
            # a bucket per known key; a missing or unknown key pays from its address's bucket
            user_id = await run_in_threadpool(self.storage.user_for_key, key) if key else None
            charge: Charge = self.limiter.charge(f"key:{key}" if user_id is not None else f"addr:{client}", cost)
            headers = self.limiter.headers(charge)
            if not charge.allowed:
                raise ApiError(ErrorStatus.RESOURCE_EXHAUSTED, f"rate limit exceeded; retry in {charge.retry_after} s")
            response = fixed or await self._answer(request, match, key, user_id, client)
        except ApiError as exc:
            response = exc.response()
            _forget(exc)
        except SpecViolation as exc:
            response = error_response(ErrorStatus.INVALID_ARGUMENT, exc.message, exc.details)
            _forget(exc)
        except Exception as exc:  # noqa: BLE001 - the last line of defence: an error object, never a traceback
            log.exception("unhandled error in %s %s", request.method, request.url.path)
            response = error_response(ErrorStatus.INTERNAL_SERVER_ERROR, "internal error")
            _forget(exc)
        response.headers.update(headers)
        return response

    async def _answer(self, request: Request, match: Match | None, key: str | None, user_id: int | None, client: str) -> Response:
        if match is None:
            raise ApiError(ErrorStatus.NOT_FOUND, f"no resource at {request.url.path}")
        op = match.operation
        if op is None:
            raise ApiError(ErrorStatus.METHOD_NOT_ALLOWED, f"{request.method} is not accepted here",
                           headers={"allow": ", ".join(match.allowed)})
        produces = JPEG if op.response == "jpeg" else JSON
        if not accepts(request.headers.get("accept"), produces):
            raise ApiError(ErrorStatus.NOT_ACCEPTABLE, f"this operation answers {produces}")
        self.allow.check(client)
        caller = await run_in_threadpool(authenticate, self.storage, key, user_id)
        caller.check_operation(op.permission)
        call = Call(op, self.variant, self.settings, self.storage, caller, self._path_params(op, match), None)
        await self._read_input(request, call)
        result = await run_in_threadpool(self.handlers[op.code], call)
        if isinstance(result, Response):
            return result
        if result is None:
            return Response(status_code=op.success)
        if isinstance(result, bytes):
            return Response(result, status_code=op.success, media_type=JPEG)
        return JSONResponse(result, status_code=op.success)

    @staticmethod
    def _path_params(op: Operation, match: Match) -> dict[str, int]:
        out = {}
        for name, text in match.path_params.items():
            if not INTEGER_TEXT.fullmatch(text):  # int() would take ' 1', '１' and '1_0'
                raise invalid(name, "INVALID_TYPE", f"must be {INTEGER_WORDS}")
            out[name] = int(text)
            if not -(2**63) <= out[name] < 2**63:  # no record has such an id (and SQLite can't hold it)
                raise not_found(f"{name} {text}")
        return out

    async def _read_input(self, request: Request, call: Call) -> None:
        op = call.op
        items = list(request.query_params.multi_items())
        call.params = dict(items)
        if op.query is not None and op.body_kind != "multipart":
            call.query = validate_query(op.code, query_dict(op.query, items), variant=self.variant)
        if op.body_kind is None:
            return
        content_type = request.headers.get("content-type", "").lower()
        limit = self.settings.max_json_bytes if op.body_kind == "json" else self.settings.max_image_bytes
        counter = None
        if op.body_kind == "json":
            if content_type and "json" not in content_type:
                raise ApiError(ErrorStatus.UNSUPPORTED_MEDIA_TYPE, "the body must be application/json")
            counter = JsonItemCounter(self.variant)
        raw = await self._read_body(request, limit + (64 * 1024 if op.body_kind == "multipart" else 0), counter)
        if op.body_kind == "json":
            call.raw = raw
        elif op.body_kind == "jpeg":
            call.upload = self._jpeg(raw, "body", limit)
        else:
            await self._read_form(request, call, raw, content_type, limit)

    async def _read_body(self, request: Request, limit: int, counter: JsonItemCounter | None) -> bytes:
        """The body, refused as soon as it is over ``limit`` bytes (before reading it when
        its Content-Length says so) or over the ``counter``'s items."""
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise body_too_large(self.variant, limit)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise body_too_large(self.variant, limit)
            if counter is not None:
                counter.feed(chunk)
            chunks.append(chunk)
        return b"".join(chunks)

    def _jpeg(self, data: bytes, field: str, limit: int) -> bytes:
        if len(data) > limit:
            raise body_too_large(self.variant, limit)
        jpeg = check_jpeg(data)
        if not jpeg.is_jpeg:
            raise ApiError(ErrorStatus.UNSUPPORTED_MEDIA_TYPE, f"{field} must be a JPEG image")
        if jpeg.too_many_pixels:
            size = f"{jpeg.size[0]}x{jpeg.size[1]} pixels" if jpeg.size else "more pixels than that"
            words = jpeg.pixel_limit_words
            raise too_large(self.variant, f"{field} is an image of {size}; {words} are accepted",
                            ErrorDetail(field=field, code="OUT_OF_RANGE", description=words))
        return data

    async def _read_form(self, request: Request, call: Call, raw: bytes, content_type: str, limit: int) -> None:
        if not content_type.startswith("multipart/form-data"):
            raise ApiError(ErrorStatus.UNSUPPORTED_MEDIA_TYPE, "the body must be multipart/form-data")

        async def replay() -> dict[str, Any]:
            return {"type": "http.request", "body": raw, "more_body": False}

        try:
            form = await Request(request.scope, replay).form(max_part_size=limit + 1)
        except HTTPException as exc:  # no boundary, or a body that is not multipart
            raise ApiError(ErrorStatus.INVALID_ARGUMENT, f"the body is not valid multipart/form-data: {exc.detail}",
                           [ErrorDetail(field="body", code="INVALID_TYPE", description="is not valid multipart/form-data")]) from None
        fields: dict[str, Any] = {}
        upload = None
        for name, value in form.multi_items():
            if name == BUSINESS_CARD_FILE_FIELD:
                upload = await value.read() if hasattr(value, "read") else str(value).encode()
            else:
                fields[name] = value
        call.query = validate_query(call.op.code, fields, variant=self.variant)
        if upload is None:
            raise invalid(BUSINESS_CARD_FILE_FIELD, "REQUIRED", "is required")
        call.upload = self._jpeg(upload, BUSINESS_CARD_FILE_FIELD, limit)


def _forget(exc: BaseException) -> None:
    """Drop the traceback of an exception that has been answered.

    An exception raised in a handler comes back through anyio's worker-thread call, whose
    frame holds the future holding the exception: exception -> traceback -> that frame ->
    future -> exception is a cycle, which keeps the handler's frames (the request body, and
    pydantic's error holding the parsed value of an unknown field) until the cyclic
    collector runs: ~360 MB per 14 MB body of ``{}``. Without the traceback nothing refers
    to the frames and they go at once.
    """
    exc.__traceback__ = None
