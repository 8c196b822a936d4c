"""A desk phone's action URLs: Yealink and Snom phones request a URL on incoming,
established and terminated calls. corpdir listens on a configured local address and
takes only ``/<token>/<event>?remote=$remote&call_id=$call_id&active_user=$active_user``
(``display_name=$display_remote`` too, if the phone sends it); any other path, or a
wrong token, is answered 403 and ignored.

Events: Yealink ``incoming``/``established``/``terminated``, Snom
``incoming``/``connected``/``disconnected``; ``missed`` ends a call that was not answered.
The server is uvicorn (already there for the reference service) on the app's loop."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import socket
from typing import TYPE_CHECKING, Any, Iterator

from corpdir.calls.events import CallEvent, CallState

if TYPE_CHECKING:
    from corpdir.calls.hub import FeedLink
    from corpdir.config import ActionUrlFeedConfig

EVENTS = {"incoming": CallState.RINGING, "ringing": CallState.RINGING, "established": CallState.ANSWERED,
          "connected": CallState.ANSWERED, "answered": CallState.ANSWERED, "terminated": CallState.ENDED,
          "disconnected": CallState.ENDED, "missed": CallState.ENDED, "ended": CallState.ENDED}


def make_app(token: str, link: FeedLink) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from corpdir.calls.events import number_from_uri

    async def action(request: Request) -> PlainTextResponse:
        if not hmac.compare_digest(request.path_params["token"].encode(), token.encode()):
            return PlainTextResponse("forbidden\n", status_code=403)
        state = EVENTS.get(request.path_params["event"].lower())
        query = request.query_params
        remote = number_from_uri(query.get("remote", ""))
        call_id = query.get("call_id", "") or remote
        if state is None or not call_id:
            link.skip(str(request.url.path), "unknown event or no call_id/remote")
            return PlainTextResponse("unknown event\n", status_code=400)
        answered = False if request.path_params["event"].lower() == "missed" else None
        link.emit(CallEvent("", call_id, state, remote, query.get("display_name", ""), query.get("active_user", ""),
                            answered=answered))
        return PlainTextResponse("ok\n")

    async def refuse(request: Request) -> PlainTextResponse:
        return PlainTextResponse("forbidden\n", status_code=403)

    return Starlette(routes=[Route("/{token}/{event}", action, methods=["GET", "POST"]),
                             Route("/{rest:path}", refuse, methods=["GET", "POST", "PUT", "DELETE", "PATCH"])])


class ActionUrlFeed:
    def __init__(self, config: ActionUrlFeedConfig) -> None:
        self.config = config
        self.name = config.name
        self.records = config.records

    async def run(self, link: FeedLink) -> None:
        import uvicorn

        class Quiet(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:  # the app owns the process's signals
                yield

        host, port = self.config.listen.rsplit(":", 1)
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), int(port)))
        server = Quiet(uvicorn.Config(make_app(self.config.token.get_secret_value(), link), log_level="warning",
                                      lifespan="off", access_log=False))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            while not server.started and not task.done():
                await asyncio.sleep(0.01)
            if task.done():
                task.result()
                raise ConnectionError("the action URL listener stopped")
            link.connected()
            await task
        finally:
            server.should_exit = True
            await asyncio.gather(task, return_exceptions=True)
            sock.close()
