"""The app factory: ``create_app(ServerSettings) -> FastAPI``.

Usable in-process (``httpx.AsyncClient(transport=httpx.ASGITransport(app))``, as the TUI
and the tests do) or served by uvicorn (``corpdir server``). Every operation path is
answered by one catch-all route that hands the request to the pipeline, which routes by
the operation table; /openapi.json is generated from the same table.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastapi import FastAPI
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from corpdir.server.handlers import all_handlers
from corpdir.server.openapi import build_openapi
from corpdir.server.pipeline import Pipeline
from corpdir.server.settings import ServerSettings
from corpdir.server.storage import Storage
from corpdir.spec.variants import get_variant

_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


def open_storage(settings: ServerSettings) -> tuple[Storage, str | None]:
    """The database of ``settings``; a fresh one gets the demo tenant or its first admin.

    Returns the storage and the bootstrap key when one was just made (shown once).
    """
    storage = Storage(settings.database, clock=settings.clock, region=settings.region)
    if not storage.is_empty():
        return storage, None
    if settings.demo:
        storage.load_tenant(_demo_tenant(settings))
        return storage, None
    return storage, storage.bootstrap(settings.bootstrap_key)


def _demo_tenant(settings: ServerSettings) -> Any:
    if settings.demo is True:
        from datetime import datetime, timezone

        from corpdir.server.demo import generate_tenant, with_recent_calls

        tenant = generate_tenant(size=settings.demo_size, seed=settings.demo_seed)
        return with_recent_calls(tenant, datetime.fromtimestamp(settings.clock(), timezone.utc))
    return settings.demo


def create_app(settings: ServerSettings | None = None, *, storage: Storage | None = None) -> FastAPI:
    settings = settings or ServerSettings()
    variant = get_variant(settings.variant)
    bootstrap_key = None
    opened = storage is None  # a storage passed in belongs to the caller, who closes it
    if storage is None:
        storage, bootstrap_key = open_storage(settings)
    pipeline = Pipeline(settings, storage, variant, all_handlers())
    openapi: dict[str, Any] = {}  # built on first request: schema generation is slow-ish

    owns_storage = opened

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        if owns_storage:
            storage.close()

    app = FastAPI(title="corpdir", openapi_url=None, docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.settings = settings
    app.state.storage = storage
    app.state.bootstrap_key = bootstrap_key
    app.state.pipeline = pipeline

    async def openapi_json(request: Request) -> Response:
        if not openapi:
            openapi.update(build_openapi(pipeline.routes.operations, variant))
        return await pipeline(request, JSONResponse(openapi))

    async def operations(request: Request) -> Response:
        return await pipeline(request)

    async def unrouted(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's ``path`` convertor is ``.*``, which no path holding a newline matches
        (``/contacts/%0A/business-card``): such a path reaches the pipeline like any other,
        so it is answered with the spec's error object, not Starlette's ``{"detail": ...}``."""
        if exc.status_code == 404:
            return await pipeline(request)
        return await http_exception_handler(request, exc)

    app.add_route("/openapi.json", openapi_json, methods=["GET"], include_in_schema=False)
    app.add_route("/{path:path}", operations, methods=_METHODS, include_in_schema=False)
    app.add_exception_handler(StarletteHTTPException, unrouted)  # type: ignore[arg-type]
    return app
