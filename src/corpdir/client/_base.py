"""The request machinery every operation of :class:`DirectoryClient` goes through.

The resource modules (:mod:`corpdir.client.resources`) are thin: each method names its
operation code, maps its arguments to path, query and body, and hands over to
:meth:`BaseClient._call`, which does the same work for every operation in the same order:

1. refuse an operation the configured variant lacks (``OperationNotAvailable``);
2. validate the query/body with the spec's rules for that variant, so bad input fails
   here with the details the service would give (``Invalid``, ``local=True``) and no
   request is made;
3. route it with the routing profile (method, path, auth header, encodings);
4. wait for the token bucket, send, retry by the rules of :mod:`corpdir.client.retry`;
5. turn the answer into spec models, bytes, or an :class:`ApiError`
   (:mod:`corpdir.client._answers`).

The API key is kept as a SecretStr and only unwrapped into the outgoing header; logged
requests show the header as ``[redacted]``. The split follows anthropic-sdk-python's
``_base_client.py`` + ``resources/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import warnings
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Mapping, TypeVar
from urllib.parse import quote, urlsplit

import httpx
from pydantic import SecretStr

from corpdir.client._answers import decode, transport_error, without_body
from corpdir.client._args import Body, Query, Record, given, merge
from corpdir.client._checks import InsecureTransportWarning, check_api_key, check_base_url, is_loopback, redact_headers
from corpdir.client._redact import hide_in_logs
from corpdir.client.errors import BadResponse, Invalid, NotFound, OperationNotAvailable, ReadOnly, error_from_response
from corpdir.client.pagination import pages
from corpdir.client.ratelimit import BucketSnapshot, Clock, Listener, Sleep, TokenBucket, is_reserved
from corpdir.client.retry import RetryPolicy
from corpdir.client.routing import RoutingProfile, scalar_text
from corpdir.config.service import ConnectionConfig
from corpdir.spec import (BY_NAME, OPERATIONS, ErrorDetail, Operation, Page, RequestModel, SpecViolation, Variant,
                          get_variant, validate_body, validate_query)
from corpdir.spec.edits import CannotClear, diff

log = logging.getLogger("corpdir.client")

T = TypeVar("T")
R = TypeVar("R")
_Self = TypeVar("_Self", bound="BaseClient")

INT64_MAX = 2**63 - 1


class BaseClient:
    """Settings, the HTTP connection, the token bucket and :meth:`_call`; no operations
    of its own (they are in :mod:`corpdir.client.resources`)."""

    def __init__(
        self,
        settings: ConnectionConfig | None = None,
        *,
        base_url: str | None = None,
        api_key: str | SecretStr | None = None,
        variant: str | Variant | None = None,
        routing: RoutingProfile | None = None,
        http_client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
        concurrency: int | None = None,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        on_rate_limit: Listener | None = None,
        read_only: bool | None = None,
    ) -> None:
        s = settings or ConnectionConfig()
        self._settings = s
        self.read_only: bool = s.read_only if read_only is None else read_only
        if base_url is None and http_client is not None and str(http_client.base_url):
            base_url = str(http_client.base_url)
        self.base_url = check_base_url(base_url or s.base_url)
        key = api_key if api_key is not None else s.resolve_api_key()
        self._api_key: SecretStr | None = check_api_key(key)
        hide_in_logs(self._secrets())
        self.variant: Variant = get_variant(variant or s.variant)
        if routing is None:
            routing = RoutingProfile.from_toml(s.routing_file) if s.routing_file else RoutingProfile.default()
        self.routing = routing
        self.retry = retry or RetryPolicy.of(s)
        self._sleep: Sleep = sleep or asyncio.sleep
        self._clock: Clock = clock or time.monotonic
        self._concurrency = concurrency or s.concurrency
        self._semaphore = asyncio.Semaphore(self._concurrency)
        self._bucket = TokenBucket(
            costs={code: op.tokens for code, op in OPERATIONS.items()},
            clock=self._clock,
            sleep=self._sleep,
            listener=on_rate_limit,
        )
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(
            transport=transport, timeout=httpx.Timeout(s.timeout, connect=s.connect_timeout), headers={"User-Agent": s.user_agent}
        )
        url = urlsplit(self.base_url)
        if url.scheme == "http" and not is_loopback(url.hostname or "") and not isinstance(transport, httpx.ASGITransport):
            warnings.warn(
                f"the API key will be sent unencrypted to {url.hostname} (use https://)",
                InsecureTransportWarning,
                stacklevel=2,
            )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, variant={self.variant.name!r}, api_key={'set' if self._api_key else 'none'})"

    async def __aenter__(self: _Self) -> _Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    def reserve_rate_share(self, share: float) -> None:
        """Keep ``share`` of the key's rate budget for requests made inside
        :func:`corpdir.client.ratelimit.reserved` (see :meth:`TokenBucket.reserve`)."""
        self._bucket.reserve(share)

    @property
    def rate_limit(self) -> BucketSnapshot:
        """The current estimate of the service's token bucket."""
        return self._bucket.snapshot()

    # ================================================================================
    # The mechanics shared by every operation
    # ================================================================================
    def _operation(self, operation: str) -> Operation:
        op = OPERATIONS.get(operation) or BY_NAME.get(operation)
        if op is None:
            raise ValueError(f"unknown operation {operation!r}")
        if not self.variant.has(op.code):
            raise OperationNotAvailable(op.code, op.name, self.variant.name)
        if self.read_only and op.is_write:
            raise ReadOnly(op.code, op.name)
        return op

    def _invalid(self, code: str, details: list[ErrorDetail]) -> Invalid:
        return Invalid(
            "the request was not sent", status="INVALID_ARGUMENT", details=details, operation=code, local=True
        )

    def _query(self, code: str, query: Query) -> dict[str, Any]:
        if isinstance(query, Mapping):
            query = given(query)
        try:
            return validate_query(code, query or {}, variant=self.variant).params()
        except SpecViolation as exc:
            raise self._invalid(code, exc.details) from None

    def _body(self, code: str, body: Body, context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        if isinstance(body, Mapping):
            body = {k: (v.model_dump(mode="json", exclude_unset=True) if isinstance(v, RequestModel) else
                        [x.model_dump(mode="json", exclude_unset=True) if isinstance(x, RequestModel) else x for x in v]
                        if isinstance(v, list) else v) for k, v in given(body).items()}
        try:
            return validate_body(code, body or {}, variant=self.variant, context=context).body()
        except SpecViolation as exc:
            raise self._invalid(code, exc.details) from None

    async def _edit(
        self,
        code: str,
        path: dict[str, Any],
        changes: Body,
        original: Record | None,
        edited: Record | None,
        context: Mapping[str, Any] | None = None,
    ) -> Any:
        if edited is not None:
            if original is None:
                raise ValueError("edited needs original: the edit sends only the difference")
            if changes is not None:
                raise ValueError("give either changes or (original, edited), not both")
            try:
                changes = diff(original, edited, OPERATIONS[code].body)
            except CannotClear as exc:
                raise self._invalid(code, [ErrorDetail(field=exc.field, code="INVALID_TYPE", description=str(exc))]) from None
        return await self._call(code, path=path, body=changes or {}, context=context)

    def _path(self, code: str, op: Operation, values: Mapping[str, Any]) -> str:
        route = self.routing.route(code)
        path = route.path
        for name in op.path_params:
            value = values.get(name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._invalid(code, [ErrorDetail(field=name, code="INVALID_TYPE", description="must be an integer id")])
            if not -INT64_MAX - 1 <= value <= INT64_MAX:  # ids are int64: no record has this one
                raise NotFound(f"{name} {value} is outside int64: no record has it", status="NOT_FOUND",
                               operation=code, local=True)
            path = path.replace("{" + name + "}", quote(str(value), safe=""))
        return self.base_url + path

    async def _call(
        self,
        operation: str,
        *,
        path: Mapping[str, Any] | None = None,
        query: Query = None,
        body: Body = None,
        upload: bytes | None = None,
        context: Mapping[str, Any] | None = None,
        validate: bool = True,
    ) -> Any:
        """Validate, route, send (rate-limited, retried) and decode one operation."""
        op = self._operation(operation)
        code = op.code
        url = self._path(code, op, path or {})
        params: dict[str, Any] = {}
        if op.query is not None or query:
            params = self._query(code, query) if validate else dict(query or {})
        if op.body is not None:
            json_body = self._body(code, body, context)
        if op.body_kind in ("jpeg", "multipart"):
            if not isinstance(upload, (bytes, bytearray, memoryview)) or not upload:
                raise self._invalid(code, [ErrorDetail(field="image", code="REQUIRED", description="a JPEG image (bytes) is required")])
            upload = bytes(upload)  # whole, so a resend sends the same bytes
        route = self.routing.route(code)
        spec = self.routing.upload(code)

        def build() -> httpx.Request:
            headers = {"Accept": "image/jpeg" if op.response == "jpeg" else "application/json"}
            if self._api_key is not None:
                headers[self.routing.auth_header] = self.routing.auth_value(self._api_key.get_secret_value())
            kw: dict[str, Any] = {}
            form = params
            if op.body_kind == "multipart":
                if spec.kind == "multipart":
                    kw["files"] = {spec.file_field: (spec.filename, upload, spec.content_type)}
                    kw["data"] = {k: scalar_text(v) for k, v in params.items()}
                    form = {}
                else:
                    kw["content"] = upload
                    headers["Content-Type"] = spec.content_type
            elif op.body_kind == "jpeg":
                if spec.kind == "multipart":
                    kw["files"] = {spec.file_field: (spec.filename, upload, spec.content_type)}
                else:
                    kw["content"] = upload
                    headers["Content-Type"] = spec.content_type
            elif op.body is not None:
                kw["content"] = json.dumps(json_body, ensure_ascii=False, separators=(",", ":")).encode()
                headers["Content-Type"] = "application/json; charset=utf-8"
            return self._http.build_request(
                route.method, url, params=self.routing.encode_query(form), headers=headers, **kw
            )

        return await self._send(op, build)

    async def _send(self, op: Operation, build: Callable[[], httpx.Request]) -> Any:
        policy = self.retry
        attempt = 0
        while True:
            outcome = await self._attempt(op, build)
            if isinstance(outcome, httpx.DecodingError):  # an answer came and could not be read
                if attempt < policy.max_retries and policy.retry_unreadable(op):
                    await self._pause(op, attempt, policy.backoff(attempt), "undecodable answer")
                    attempt += 1
                    continue
                raise BadResponse("the answer could not be decoded", http_status=0, operation=op.code) from None
            if isinstance(outcome, httpx.TransportError):
                if attempt < policy.max_retries and policy.retry_exception(op, outcome):
                    await self._pause(op, attempt, policy.backoff(attempt), f"{type(outcome).__name__}")
                    attempt += 1
                    continue
                raise transport_error(op, outcome) from outcome
            response = outcome
            if response.is_success:
                try:
                    return decode(op, response)
                except BadResponse as exc:
                    if attempt < policy.max_retries and policy.retry_unreadable(op):
                        await self._pause(op, attempt, policy.backoff(attempt), "unreadable answer")
                        attempt += 1
                        continue
                    raise exc from None
            status = response.status_code
            wait = None
            if status == 429:
                wait = error_from_response(response, op.code, secrets=self._secrets()).retry_after
                if wait is None:
                    wait = self._bucket.refill_wait(op.code, response.headers)
            error = error_from_response(response, op.code, retry_after=wait, secrets=self._secrets())
            if error.retry_after is not None and error.retry_after > policy.max_retry_after:
                raise error  # fail fast: the UI shows "retry in N s" instead of hanging
            if attempt < policy.max_retries and policy.retry_status(op, status):
                if status == 429:
                    # Every caller holds back; the bucket then waits for tokens as usual.
                    self._bucket.pause(error.retry_after if error.retry_after is not None else policy.backoff(attempt))
                    log.info("%s: rate limited (429), waiting %.2fs", op.code, error.retry_after or 0)
                else:
                    await self._pause(op, attempt, policy.backoff(attempt, error.retry_after), f"HTTP {status}")
                attempt += 1
                continue
            raise error

    def _secrets(self) -> tuple[str, ...]:
        """The API key as it may come back in an answer: as sent, and percent-encoded."""
        if self._api_key is None:
            return ()
        key = self._api_key.get_secret_value()
        return (key, quote(key, safe=""))

    async def _attempt(
        self, op: Operation, build: Callable[[], httpx.Request]
    ) -> httpx.Response | httpx.TransportError | httpx.DecodingError:
        """One send, inside the concurrency cap and paid for from the bucket.

        The request is built before a token is taken, so one that cannot be built costs
        nothing and leaves no claim on the bucket behind. The body is read here: a body
        whose content-encoding cannot be decoded comes back as an empty body (marked
        ``corpdir_unreadable``), so it is judged like any other unreadable answer."""
        # a reserved request (the gateway's N1 for a ringing phone) does not queue for a
        # connection behind a sync's requests, each of which may be waiting for tokens
        async with (contextlib.nullcontext() if is_reserved() else self._semaphore):
            request = build()
            ticket = await self._bucket.acquire(op.code)
            started = self._clock()
            try:
                response = await self._http.send(request, stream=True)
            except (httpx.TransportError, httpx.DecodingError) as exc:  # a transport that decodes itself
                self._bucket.settle(ticket, None)
                log.debug("%s %s failed: %s", request.method, request.url.path, type(exc).__name__)
                return exc
            except BaseException:
                self._bucket.settle(ticket, None)
                raise
            self._bucket.settle(ticket, response.headers, status=response.status_code)
            streamed = response
            try:
                await streamed.aread()
            except httpx.DecodingError:
                log.debug("%s %s: the answer's body could not be decoded", request.method, request.url.path)
                response = without_body(streamed, request)
            except httpx.TransportError as exc:  # cut off while the body came: an answer was on its way
                log.debug("%s %s failed reading the answer: %s", request.method, request.url.path, type(exc).__name__)
                return exc
            finally:
                await streamed.aclose()
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "%s %s %s -> %s (%.0f ms) headers=%s",
                op.code, request.method, request.url.path, response.status_code,
                (self._clock() - started) * 1000, redact_headers(request.headers, self.routing.auth_header),
            )
        return response

    async def _pause(self, op: Operation, attempt: int, delay: float, why: str) -> None:
        log.info("%s: %s, retry %d in %.2fs", op.code, why, attempt + 1, delay)
        await self._sleep(delay)

    # ================================================================================
    # Listing everything
    # ================================================================================
    async def iter_pages(self, operation: str, query: Query = None, /, **params: Any) -> AsyncIterator[Page[Any]]:
        """Every page of a list operation (code or method name), within its limits."""
        op = self._operation(operation)
        if not op.is_list:
            raise ValueError(f"{op.code} ({op.name}) is not a list operation: it has no pages")
        start = self._query(op.code, merge(query, params))
        async for page in pages(self._fetch_page, op.code, start):
            yield page

    async def paginate(self, operation: str, query: Query = None, /, **params: Any) -> AsyncIterator[Any]:
        """Every item of a list operation; X1 goes past its 10,000-record page window."""
        async for page in self.iter_pages(operation, query, **params):
            for item in page.items:
                yield item

    async def bulk(self, fn: Callable[[T], Awaitable[R]], items: Iterable[T], *, concurrency: int | None = None) -> list[R]:
        """``[await fn(x) for x in items]`` with at most ``concurrency`` (default: the
        client's) running at once; e.g. ``await client.bulk(client.get_user, ids)``."""
        gate = asyncio.Semaphore(concurrency or self._concurrency)

        async def one(item: T) -> R:
            async with gate:
                return await fn(item)

        return list(await asyncio.gather(*(one(x) for x in items)))

    async def _fetch_page(self, code: str, params: dict[str, Any]) -> Page[Any]:
        return await self._call(code, query=params)
