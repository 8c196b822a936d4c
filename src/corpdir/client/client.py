"""DirectoryClient: one typed async method per operation of the interface spec.

The methods are thin: each names its operation code, maps its arguments to path, query
and body, and hands over to :meth:`DirectoryClient._call`, which does the same work for
every operation in the same order:

1. refuse an operation the configured variant lacks (``OperationNotAvailable``);
2. validate the query/body with the spec's rules for that variant, so bad input fails
   here with the details the service would give (``Invalid``, ``local=True``) and no
   request is made;
3. route it with the routing profile (method, path, auth header, encodings);
4. wait for the token bucket, send, retry by the rules of :mod:`corpdir.client.retry`;
5. turn the answer into spec models, bytes, or an :class:`ApiError`.

The API key is kept as a SecretStr and only unwrapped into the outgoing header; logged
requests show the header as ``[redacted]``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
import warnings
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence, TypeVar
from urllib.parse import quote, urlsplit

import httpx
from pydantic import BaseModel, SecretStr, ValidationError

from corpdir.client.diff import diff
from corpdir.client.errors import (
    BadResponse,
    ConfigError,
    Invalid,
    NotFound,
    OperationNotAvailable,
    ReadOnly,
    TransportError,
    error_from_response,
)
from corpdir.client.pagination import pages
from corpdir.client.ratelimit import BucketSnapshot, Clock, Listener, Sleep, TokenBucket
from corpdir.client.retry import NOT_SENT, RetryPolicy
from corpdir.client.routing import RoutingProfile, scalar_text
from corpdir.client.settings import ClientSettings
from corpdir.spec import (
    BY_NAME,
    OMIT,
    OPERATIONS,
    ErrorDetail,
    Operation,
    Page,
    QueryModel,
    RequestModel,
    SpecViolation,
    Variant,
    get_variant,
    validate_body,
    validate_query,
)
from corpdir.spec.calls import (
    CallQuery,
    IncomingCall,
    IncomingCallCreate,
    IncomingCallEdit,
    OutgoingCall,
    OutgoingCallCreate,
    OutgoingCallEdit,
)
from corpdir.spec.contact import BusinessCardCreated, BusinessCardForm, Contact, ContactCreate, ContactEdit, ContactQuery
from corpdir.spec.division import Division, DivisionCreate, DivisionEdit, DivisionQuery
from corpdir.spec.enums import PhotoSize
from corpdir.spec.folder import Folder, FolderQuery, PersonalFolder, PersonalFolderCreate, PersonalFolderEdit, PersonalFolderQuery
from corpdir.spec.identify import IdentifyResult
from corpdir.spec.location import LocationEntry, SpotsResult
from corpdir.spec.profile import Profile, ProfileEdit
from corpdir.spec.user import DestinationEntry, DestinationsResult, User, UserCreate, UserEdit, UserQuery

log = logging.getLogger("corpdir.client")

T = TypeVar("T")
R = TypeVar("R")
Query = QueryModel | Mapping[str, Any] | None
Body = RequestModel | Mapping[str, Any] | None
Record = BaseModel | Mapping[str, Any]

REDACTED = "[redacted]"
INT64_MAX = 2**63 - 1


class InsecureTransportWarning(UserWarning):
    """The API key would travel unencrypted (http:// to a host that is not this machine)."""


def _is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def redact_headers(headers: Mapping[str, str], secret_header: str) -> dict[str, str]:
    """Headers fit for a log line: the auth header's value replaced."""
    hidden = {secret_header.lower(), "authorization", "x-api-key", "proxy-authorization", "cookie"}
    return {k: (REDACTED if k.lower() in hidden else v) for k, v in headers.items()}


class DirectoryClient:
    """Async client of the corporate directory service.

    Use as ``async with DirectoryClient(settings) as client: ...``. Pass
    ``transport=httpx.ASGITransport(app=create_app(...))`` (or a whole ``http_client``) to
    talk to the reference server in-process. ``clock``/``sleep`` replace time.monotonic /
    asyncio.sleep (tests), ``on_rate_limit`` receives a :class:`BucketSnapshot` whenever the
    rate-limit estimate changes (the UI's status bar). ``read_only=True`` (or
    ``settings.read_only``) makes every operation that would change the directory raise
    :class:`ReadOnly` before a request is built; reads, and N1 (a POST that only reads), go on.
    """

    def __init__(
        self,
        settings: ClientSettings | None = None,
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
        s = settings or ClientSettings()
        self._settings = s
        self.read_only: bool = s.read_only if read_only is None else read_only
        if base_url is None and http_client is not None and str(http_client.base_url):
            base_url = str(http_client.base_url)
        self.base_url = _check_base_url(base_url or s.base_url)
        key = api_key if api_key is not None else s.resolve_api_key()
        self._api_key: SecretStr | None = _check_api_key(key)
        self.variant: Variant = get_variant(variant or s.variant)
        if routing is None:
            routing = RoutingProfile.from_toml(s.routing_file) if s.routing_file else RoutingProfile.default()
        self.routing = routing
        self.retry = retry or s.retry_policy()
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
            transport=transport, timeout=s.httpx_timeout(), headers={"User-Agent": s.user_agent}
        )
        url = urlsplit(self.base_url)
        if url.scheme == "http" and not _is_loopback(url.hostname or "") and not isinstance(transport, httpx.ASGITransport):
            warnings.warn(
                f"the API key will be sent unencrypted to {url.hostname} (use https://)",
                InsecureTransportWarning,
                stacklevel=2,
            )

    def __repr__(self) -> str:
        return f"DirectoryClient(base_url={self.base_url!r}, variant={self.variant.name!r}, api_key={'set' if self._api_key else 'none'})"

    async def __aenter__(self) -> DirectoryClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    @property
    def rate_limit(self) -> BucketSnapshot:
        """The current estimate of the service's token bucket."""
        return self._bucket.snapshot()

    # ================================================================================
    # Users (U1-U11)
    # ================================================================================
    async def list_users(self, query: UserQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[User]:
        """U1: one page of users (fields within the caller's permission range)."""
        return await self._call("U1", query=_merge(query, params))

    async def create_user(self, user: UserCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> User:
        """U2: create a user (loginId and fullname required)."""
        return await self._call("U2", body=_merge(user, fields))

    async def get_user(self, user_id: int) -> User:
        """U3: one user."""
        return await self._call("U3", path={"userId": user_id})

    async def edit_user(
        self,
        user_id: int,
        changes: UserEdit | Mapping[str, Any] | None = None,
        *,
        original: User | Mapping[str, Any] | None = None,
        edited: User | Mapping[str, Any] | None = None,
    ) -> User:
        """U4: change only the given fields (or the difference between ``original`` and
        ``edited``). With ``original`` the per-user-type field rules are checked locally
        against its userType, as the service does."""
        user_type = _get(original, "userType")
        return await self._edit("U4", {"userId": user_id}, changes, original, edited, {"user_type": user_type} if user_type else None)

    async def delete_user(self, user_id: int) -> None:
        """U5: delete a user (and the face photo)."""
        await self._call("U5", path={"userId": user_id})

    async def get_photo(self, user_id: int, size: PhotoSize | str = PhotoSize.FULL) -> bytes:
        """U6: the face photo as JPEG bytes (``size`` FULL or THUMBNAIL)."""
        try:
            size = PhotoSize(size)
        except ValueError:
            raise self._invalid("U6", [ErrorDetail(field="size", code="INVALID_ENUM", description="must be one of 'FULL', 'THUMBNAIL'")]) from None
        return await self._call("U6", path={"userId": user_id}, query={"size": size.value}, validate=False)

    async def put_photo(self, user_id: int, image: bytes) -> None:
        """U7: replace the face photo with a JPEG image."""
        await self._call("U7", path={"userId": user_id}, upload=image)

    async def delete_photo(self, user_id: int) -> None:
        """U8: delete the face photo."""
        await self._call("U8", path={"userId": user_id})

    async def get_profile(self, user_id: int) -> Profile:
        """U9: a user's profile."""
        return await self._call("U9", path={"userId": user_id})

    async def edit_profile(
        self,
        user_id: int,
        changes: ProfileEdit | Mapping[str, Any] | None = None,
        *,
        original: Profile | Mapping[str, Any] | None = None,
        edited: Profile | Mapping[str, Any] | None = None,
    ) -> Profile:
        """U10: change profile fields; a list sent replaces the stored list."""
        return await self._edit("U10", {"userId": user_id}, changes, original, edited)

    async def edit_destinations(self, destinations: Sequence[DestinationEntry | Mapping[str, Any]]) -> DestinationsResult:
        """U11: set many users' destinations (whereabouts) at once, up to 10,000 entries."""
        return await self._call("U11", body={"destinations": _entries(destinations)})

    # ================================================================================
    # Divisions (D1-D5)
    # ================================================================================
    async def list_divisions(self, query: DivisionQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[Division]:
        """D1: one page of divisions."""
        return await self._call("D1", query=_merge(query, params))

    async def create_division(self, division: DivisionCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> Division:
        """D2: create a division (divisionCode and divisionName required)."""
        return await self._call("D2", body=_merge(division, fields))

    async def get_division(self, division_id: int) -> Division:
        """D3: one division."""
        return await self._call("D3", path={"divisionId": division_id})

    async def edit_division(
        self,
        division_id: int,
        changes: DivisionEdit | Mapping[str, Any] | None = None,
        *,
        original: Division | Mapping[str, Any] | None = None,
        edited: Division | Mapping[str, Any] | None = None,
    ) -> Division:
        """D4: change division fields (parentDivisionId 0 moves it to the top level)."""
        return await self._edit("D4", {"divisionId": division_id}, changes, original, edited)

    async def delete_division(self, division_id: int) -> None:
        """D5: delete a division and every division below it."""
        await self._call("D5", path={"divisionId": division_id})

    # ================================================================================
    # External contacts (X1-X8)
    # ================================================================================
    async def list_contacts(self, query: ContactQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[Contact]:
        """X1: one page of external contacts (pages 0..19 only; see iter_contacts)."""
        return await self._call("X1", query=_merge(query, params))

    async def create_contact(self, contact: ContactCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> Contact:
        """X2: create a contact (folderId and fullname required)."""
        return await self._call("X2", body=_merge(contact, fields))

    async def edit_contact(
        self,
        contact_id: int,
        changes: ContactEdit | Mapping[str, Any] | None = None,
        *,
        original: Contact | Mapping[str, Any] | None = None,
        edited: Contact | Mapping[str, Any] | None = None,
    ) -> Contact:
        """X3: change contact fields (the folder cannot be changed)."""
        return await self._edit("X3", {"contactId": contact_id}, changes, original, edited)

    async def delete_contact(self, contact_id: int) -> None:
        """X4: delete a contact (its card image too)."""
        await self._call("X4", path={"contactId": contact_id})

    async def create_contact_from_card(
        self, image: bytes, form: BusinessCardForm | Mapping[str, Any] | None = None, /, **fields: Any
    ) -> BusinessCardCreated:
        """X5: create a contact from a business-card image (form: directory, folderNum, ...)."""
        return await self._call("X5", query=_merge(form, fields), upload=image)

    async def get_card_image(self, contact_id: int) -> bytes:
        """X6: the stored business-card image as JPEG bytes."""
        return await self._call("X6", path={"contactId": contact_id})

    async def put_card_image(self, contact_id: int, image: bytes) -> None:
        """X7: replace the business-card image with a JPEG image."""
        await self._call("X7", path={"contactId": contact_id}, upload=image)

    async def delete_card_image(self, contact_id: int) -> None:
        """X8: delete the business-card image."""
        await self._call("X8", path={"contactId": contact_id})

    # ================================================================================
    # Folders (F1, P1-P3)
    # ================================================================================
    async def list_folders(self, query: FolderQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[Folder]:
        """F1: shared then personal address-book folders."""
        return await self._call("F1", query=_merge(query, params))

    async def list_personal_folders(
        self, query: PersonalFolderQuery | Mapping[str, Any] | None = None, /, **params: Any
    ) -> Page[PersonalFolder]:
        """P1: the caller's personal folders."""
        return await self._call("P1", query=_merge(query, params))

    async def create_personal_folder(
        self, folder: PersonalFolderCreate | Mapping[str, Any] | None = None, /, **fields: Any
    ) -> PersonalFolder:
        """P2: create a personal folder (folderName required)."""
        return await self._call("P2", body=_merge(folder, fields))

    async def edit_personal_folder(
        self,
        folder_num: int,
        changes: PersonalFolderEdit | Mapping[str, Any] | None = None,
        *,
        original: PersonalFolder | Mapping[str, Any] | None = None,
        edited: PersonalFolder | Mapping[str, Any] | None = None,
    ) -> PersonalFolder:
        """P3: rename or re-sort a personal folder."""
        return await self._edit("P3", {"folderNum": folder_num}, changes, original, edited)

    # ================================================================================
    # Phone numbers, call histories, locations (N1, H1-H6, L1)
    # ================================================================================
    async def identify_numbers(self, phone_nums: Sequence[str]) -> IdentifyResult:
        """N1: who has these numbers (1 to 5 numbers)."""
        return await self._call("N1", body={"phoneNums": _entries(phone_nums)})

    async def list_incoming_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[IncomingCall]:
        """H1: one page of the caller's incoming calls (pageSize up to 20)."""
        return await self._call("H1", query=_merge(query, params))

    async def create_incoming_call(self, call: IncomingCallCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> IncomingCall:
        """H2: add an incoming call record (answered and calledAt required)."""
        return await self._call("H2", body=_merge(call, fields))

    async def edit_incoming_call(
        self,
        history_id: int,
        changes: IncomingCallEdit | Mapping[str, Any] | None = None,
        *,
        original: IncomingCall | Mapping[str, Any] | None = None,
        edited: IncomingCall | Mapping[str, Any] | None = None,
    ) -> IncomingCall:
        """H3: change an incoming call record."""
        return await self._edit("H3", {"incomingCallHistoryId": history_id}, changes, original, edited)

    async def list_outgoing_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> Page[OutgoingCall]:
        """H4: one page of the caller's outgoing calls (pageSize up to 20)."""
        return await self._call("H4", query=_merge(query, params))

    async def create_outgoing_call(self, call: OutgoingCallCreate | Mapping[str, Any] | None = None, /, **fields: Any) -> OutgoingCall:
        """H5: add an outgoing call record (toNum, answered and callingAt required)."""
        return await self._call("H5", body=_merge(call, fields))

    async def edit_outgoing_call(
        self,
        history_id: int,
        changes: OutgoingCallEdit | Mapping[str, Any] | None = None,
        *,
        original: OutgoingCall | Mapping[str, Any] | None = None,
        edited: OutgoingCall | Mapping[str, Any] | None = None,
    ) -> OutgoingCall:
        """H6: change an outgoing call record."""
        return await self._edit("H6", {"outgoingCallHistoryId": history_id}, changes, original, edited)

    async def register_spots(self, locations: Sequence[LocationEntry | Mapping[str, Any]]) -> SpotsResult:
        """L1: register spot information per location tag (1 to 10,000; once per 5 minutes)."""
        return await self._call("L1", body={"locations": _entries(locations)})

    # ================================================================================
    # Listing everything
    # ================================================================================
    async def iter_pages(self, operation: str, query: Query = None, /, **params: Any) -> AsyncIterator[Page[Any]]:
        """Every page of a list operation (code or method name), within its limits."""
        op = self._operation(operation)
        if not op.is_list:
            raise ValueError(f"{op.code} ({op.name}) is not a list operation: it has no pages")
        start = self._query(op.code, _merge(query, params))
        async for page in pages(self._fetch_page, op.code, start):
            yield page

    async def paginate(self, operation: str, query: Query = None, /, **params: Any) -> AsyncIterator[Any]:
        """Every item of a list operation; X1 goes past its 10,000-record page window."""
        async for page in self.iter_pages(operation, query, **params):
            for item in page.items:
                yield item

    def iter_users(self, query: UserQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[User]:
        """Every user matching ``query`` (U1)."""
        return self.paginate("U1", query, **params)

    def iter_divisions(self, query: DivisionQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[Division]:
        """Every division matching ``query`` (D1)."""
        return self.paginate("D1", query, **params)

    def iter_contacts(self, query: ContactQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[Contact]:
        """Every contact matching ``query`` (X1), however many: split by update time."""
        return self.paginate("X1", query, **params)

    def iter_folders(self, query: FolderQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[Folder]:
        """Every folder (F1)."""
        return self.paginate("F1", query, **params)

    def iter_personal_folders(
        self, query: PersonalFolderQuery | Mapping[str, Any] | None = None, /, **params: Any
    ) -> AsyncIterator[PersonalFolder]:
        """Every personal folder (P1)."""
        return self.paginate("P1", query, **params)

    def iter_incoming_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[IncomingCall]:
        """Every incoming call record (H1)."""
        return self.paginate("H1", query, **params)

    def iter_outgoing_calls(self, query: CallQuery | Mapping[str, Any] | None = None, /, **params: Any) -> AsyncIterator[OutgoingCall]:
        """Every outgoing call record (H4)."""
        return self.paginate("H4", query, **params)

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
            query = _given(query)
        try:
            return validate_query(code, query or {}, variant=self.variant).params()
        except SpecViolation as exc:
            raise self._invalid(code, exc.details) from None

    def _body(self, code: str, body: Body, context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        if isinstance(body, Mapping):
            body = {k: (v.model_dump(mode="json", exclude_unset=True) if isinstance(v, RequestModel) else
                        [x.model_dump(mode="json", exclude_unset=True) if isinstance(x, RequestModel) else x for x in v]
                        if isinstance(v, list) else v) for k, v in _given(body).items()}
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
            except ValueError as exc:
                raise self._invalid(code, [ErrorDetail(field=str(exc).split(" ")[0], code="INVALID_TYPE", description=str(exc))]) from None
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
                raise _transport_error(op, outcome) from outcome
            response = outcome
            if response.is_success:
                try:
                    return _decode(op, response)
                except BadResponse as exc:
                    if attempt < policy.max_retries and policy.retry_unreadable(op):
                        await self._pause(op, attempt, policy.backoff(attempt), "unreadable answer")
                        attempt += 1
                        continue
                    raise exc from None
            status = response.status_code
            wait = None
            if status == 429:
                wait = error_from_response(response, op.code).retry_after
                if wait is None:
                    wait = self._bucket.refill_wait(op.code, response.headers)
            error = error_from_response(response, op.code, retry_after=wait)
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

    async def _attempt(
        self, op: Operation, build: Callable[[], httpx.Request]
    ) -> httpx.Response | httpx.TransportError | httpx.DecodingError:
        """One send, inside the concurrency cap and paid for from the bucket.

        The request is built before a token is taken, so one that cannot be built costs
        nothing and leaves no claim on the bucket behind. The body is read here: a body
        whose content-encoding cannot be decoded comes back as an empty body (marked
        ``corpdir_unreadable``), so it is judged like any other unreadable answer."""
        async with self._semaphore:
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
                response = _without_body(streamed, request)
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


# -- helpers ---------------------------------------------------------------------------
def _check_base_url(url: str | None) -> str:
    """The base URL without a trailing slash; refused (ConfigError) unless http(s)://host..."""
    if not url:
        raise ConfigError("No directory service address (base URL) is configured.")
    url = str(url).strip()
    try:
        parts = urlsplit(url)
        host, _port = parts.hostname, parts.port  # .port raises on a port that is no number
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host or parts.query or parts.fragment:
        shown = url.split("?")[0].split("#")[0].rsplit("@", 1)[-1]  # never a password or a key in a query
        raise ConfigError(
            f"The directory service address {shown!r} is not usable: it must look like https://host/prefix "
            "(http:// or https://, a host name, an optional port, no query)."
        )
    return url.rstrip("/")


def _check_api_key(key: str | SecretStr | None) -> SecretStr | None:
    """The key as a SecretStr, surrounding whitespace removed; refused (ConfigError, which
    never shows the key) if HTTP cannot carry it in a header: a stray line break or
    non-ASCII character would otherwise fail on every request, with the key in the error."""
    if key is None:
        return None
    text = (key.get_secret_value() if isinstance(key, SecretStr) else str(key)).strip()
    if not text:
        return None
    bad = next((i for i, ch in enumerate(text) if not " " <= ch <= "~"), None)
    if bad is not None:
        raise ConfigError(
            f"The API key has a character that cannot be sent in an HTTP header (character {bad + 1} of "
            f"{len(text)}: a line break, tab or non-ASCII character). Check how the key was copied."
        )
    return SecretStr(text)


def _given(values: Mapping[str, Any]) -> dict[str, Any]:
    """A mapping of fields without the ones not given: None and OMIT mean "leave out"."""
    return {k: v for k, v in values.items() if v is not None and v is not OMIT}


def _entries(values: Any) -> list[Any]:
    """The list of a bulk body; a single entry (a mapping, a model or one string) is a
    list of one, not a list of its keys or characters."""
    if isinstance(values, (str, bytes, Mapping, BaseModel)):
        return [values]
    return list(values)


def _merge(base: Any, extra: Mapping[str, Any]) -> Any:
    """A model/mapping argument plus keyword fields, as one mapping (or the model)."""
    if not extra:
        return base
    if base is None:
        return dict(extra)
    if isinstance(base, BaseModel):
        base = base.model_dump(exclude_unset=True)
    return {**base, **extra}


def _get(record: Any, name: str) -> Any:
    if record is None:
        return None
    if isinstance(record, Mapping):
        return record.get(name)
    return getattr(record, name, None)


def _without_body(response: httpx.Response, request: httpx.Request) -> httpx.Response:
    """The answer's status and headers with no body (its content-encoding was broken)."""
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
    return httpx.Response(response.status_code, headers=headers, content=b"", request=request,
                          extensions={"corpdir_unreadable": True})


def _decode(op: Operation, response: httpx.Response) -> Any:
    if op.response is None:
        return None
    if op.response == "jpeg":
        if not response.content.startswith(b"\xff\xd8"):  # JPEG's start-of-image marker
            # e.g. a proxy's login page answered with 200: not a photo to show
            raise BadResponse(
                "the answer was not a JPEG image",
                http_status=response.status_code,
                operation=op.code,
            )
        return response.content
    try:
        return op.response.model_validate_json(response.content)
    except (ValidationError, ValueError):
        raise BadResponse(
            "the answer was cut off or not in the expected form",
            http_status=response.status_code,
            operation=op.code,
        ) from None


_TRANSPORT_WORDS = [
    (httpx.UnsupportedProtocol, "The directory service address must start with http:// or https://"),
    (httpx.LocalProtocolError, "The request could not be sent as HTTP (check the API key and the routing profile)"),
    (httpx.ConnectTimeout, "Could not connect to the directory service in time"),
    (httpx.ConnectError, "Could not connect to the directory service"),
    (httpx.TimeoutException, "The directory service did not answer in time"),
    (httpx.RemoteProtocolError, "The connection to the directory service broke off"),
    (httpx.TransportError, "The connection to the directory service failed"),
]


def _transport_error(op: Operation, exc: httpx.TransportError) -> TransportError:
    words = next(text for cls, text in _TRANSPORT_WORDS if isinstance(exc, cls))
    sent = False if isinstance(exc, NOT_SENT) else None
    if op.is_write and sent is None:
        words += "; the change may or may not have been saved, reload to check"
    return TransportError(f"{words} ({type(exc).__name__}, operation {op.code}).", operation=op.code, sent=sent)
