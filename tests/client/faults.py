"""Fault injection between the client and an in-process app: a transport wrapper.

Each request takes the next fault of the plan (None = pass through). Faults named
``*_before`` never reach the app (the failure is known to precede sending); the others
reach it first and then fail on the way back, the ambiguous case for writes.
"""

from __future__ import annotations

from typing import Iterable

import httpx

HTML_502 = b"""<!DOCTYPE html><html><head><title>502 Bad Gateway</title>
<style>body{font-family:sans-serif}</style></head>
<body><h1>502   Bad
Gateway</h1><p>The proxy &amp; gateway got an invalid response.</p><script>var x=1;</script></body></html>"""


class FaultTransport(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport, plan: Iterable[str | None] = ()) -> None:
        self.inner = inner
        self.plan = list(plan)
        self.sent = 0  # requests that left the client (reached this transport)

    def add(self, *faults: str | None) -> None:
        self.plan.extend(faults)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent += 1
        fault = self.plan.pop(0) if self.plan else None
        if fault == "connect_error_before":
            raise httpx.ConnectError("connection refused", request=request)
        if fault == "connect_timeout_before":
            raise httpx.ConnectTimeout("connect timed out", request=request)
        if fault == "pool_timeout_before":
            raise httpx.PoolTimeout("no connection free", request=request)
        if fault == "unsupported_protocol_before":  # e.g. a proxy setting with a scheme httpx lacks
            raise httpx.UnsupportedProtocol("Request URL has an unsupported protocol", request=request)
        if fault == "local_protocol_before":  # the request cannot be put on the wire at all
            raise httpx.LocalProtocolError("Illegal header value", request=request)
        if fault == "429_before":
            return httpx.Response(
                429, json={"error": {"status": "RESOURCE_EXHAUSTED", "message": "slow down", "details": []}},
                headers={"Retry-After": "2"}, request=request,
            )
        if fault == "429_no_retry_after_before":  # the wait follows from the rate-limit headers
            return httpx.Response(
                429, json={"error": {"status": "RESOURCE_EXHAUSTED", "message": "slow down", "details": []}},
                headers={"x-ratelimit-remaining": "0", "x-ratelimit-requested-tokens": "1",
                         "x-ratelimit-burst-capacity": "20", "x-ratelimit-replenish-rate": "4"}, request=request,
            )
        if fault == "429_long_before":
            return httpx.Response(429, json={"error": {"status": "RESOURCE_EXHAUSTED", "message": "slow down"}},
                                  headers={"Retry-After": "3600"}, request=request)
        response = await self.inner.handle_async_request(request)
        body = await response.aread()
        await response.aclose()
        if fault is None:
            return httpx.Response(response.status_code, headers=response.headers, content=body, request=request)
        if fault == "reset_after":
            raise httpx.ReadError("connection reset by peer", request=request)
        if fault == "read_timeout":
            raise httpx.ReadTimeout("read timed out", request=request)
        if fault == "protocol_error":
            raise httpx.RemoteProtocolError("server disconnected without sending a response", request=request)
        if fault == "503":
            return httpx.Response(503, json={"error": {"status": "SERVICE_UNAVAILABLE", "message": "down", "details": []}},
                                  request=request)
        if fault == "html502":
            return httpx.Response(502, content=HTML_502, headers={"content-type": "text/html"}, request=request)
        if fault == "bad_gzip":  # says gzip, is not: the body cannot be decoded when the client reads it
            headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
            headers["content-encoding"] = "gzip"
            return httpx.Response(response.status_code, headers=headers, stream=httpx.ByteStream(body), request=request)
        if fault == "html200":  # a proxy's login page answered in place of the service
            return httpx.Response(200, content=b"<html><body>Please sign in</body></html>",
                                  headers={"content-type": "text/html"}, request=request)
        if fault == "truncated":
            headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
            return httpx.Response(response.status_code, headers=headers, content=body[: len(body) // 2], request=request)
        raise AssertionError(f"unknown fault {fault!r}")
