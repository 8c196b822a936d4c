"""DirectoryClient: one typed async method per operation of the interface spec.

The methods live in :mod:`corpdir.client.resources`, one module per resource; the work
every operation shares (validation, routing, the token bucket, retries, decoding) is in
:mod:`corpdir.client._base`. This class only puts them together.
"""

from __future__ import annotations

from corpdir.client._checks import InsecureTransportWarning, redact_headers
from corpdir.client.resources import (
    CallsResource,
    ContactsResource,
    DivisionsResource,
    FoldersResource,
    LocationsResource,
    NumbersResource,
    UsersResource,
)

__all__ = ["DirectoryClient", "InsecureTransportWarning", "redact_headers"]


class DirectoryClient(
    UsersResource,
    DivisionsResource,
    ContactsResource,
    FoldersResource,
    NumbersResource,
    CallsResource,
    LocationsResource,
):
    """Async client of the corporate directory service.

    Use as ``async with DirectoryClient(settings) as client: ...``. Pass
    ``transport=httpx.ASGITransport(app=create_app(...))`` (or a whole ``http_client``) to
    talk to the reference server in-process. ``clock``/``sleep`` replace time.monotonic /
    asyncio.sleep (tests), ``on_rate_limit`` receives a :class:`BucketSnapshot` whenever the
    rate-limit estimate changes (the UI's status bar). ``read_only=True`` (or
    ``settings.read_only``) makes every operation that would change the directory raise
    :class:`ReadOnly` before a request is built; reads, and N1 (a POST that only reads), go on.
    """
