"""textual-serve locked to its own page: a per-start token, Origin and Host checks, a session cap.

textual-serve (1.1) serves ``/`` and a websocket at ``/ws`` that starts an app process for
whoever connects, checking neither Origin nor Host: any web page the user has open could
connect to ``ws://127.0.0.1:PORT/ws`` and drive the directory, and a DNS-rebinding page
could read it. This server keeps textual-serve's page and its app process handling, and
changes only the door:

- every route lives under ``/<token>/``, a random token made at each start: the printed
  URL is the only way in (a page elsewhere cannot guess it);
- a request whose ``Host`` is not one this server answers to is refused (DNS rebinding);
- a websocket whose ``Origin`` is not the page's own origin is refused (a foreign page);
- at most ``max_sessions`` apps run at once; one more is refused with 503;
- the page loads nothing from outside: textual-serve's web-font link is replaced by the
  font it ships, and a Content-Security-Policy allows this origin only;
- the token is the key to the app, so the log never shows it: aiohttp's access log puts
  the path in each request line, which reads ``/[token]/...``, and a traceback shows no
  local variables (the request, the server).
"""

from __future__ import annotations

import logging
import re
import secrets
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

#: textual-serve's page asks Google Fonts for Roboto Mono; the same font ships in its static files.
_WEB_FONT_LINK = re.compile(r'<link\s+rel="stylesheet"\s+href="https?://fonts\.googleapis\.com[^"]*"\s*/?>', re.S)
_LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
HIDDEN_TOKEN = "[token]"


class _HideToken(logging.Filter):
    """On the log's handler, so it sees every logger's lines (aiohttp.access, textual-serve)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, HIDDEN_TOKEN), ()
        return True


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class GuardedServer(Server):
    """textual-serve's Server behind a token, Origin and Host checks and a session cap."""

    def __init__(self, command: str, *, host: str, port: int, public_url: str | None = None,
                 max_sessions: int = 8, token: str | None = None) -> None:
        self.token = token or secrets.token_urlsafe(18)
        super().__init__(command, host=host, port=port, title="corpdir", public_url=public_url)
        self.public_url = self.public_url.rstrip("/")
        self.max_sessions = max_sessions
        self.sessions = 0
        self.allowed_hosts = {urlsplit(self.public_url).netloc.lower(), self._netloc(host, port)}
        if host in _LOOPBACK:
            self.allowed_hosts |= {self._netloc(name, port) for name in _LOOPBACK}
        self.allowed_origins = {_origin(self.public_url)} | {f"http://{netloc}" for netloc in self.allowed_hosts}

    @staticmethod
    def _netloc(host: str, port: int) -> str:
        host = f"[{host}]" if ":" in host and not host.startswith("[") else host
        return host.lower() if port == 80 else f"{host.lower()}:{port}"

    @property
    def page_url(self) -> str:
        """The one address that opens the app (changes at every start)."""
        return f"{self.public_url}/{self.token}/"

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        import aiohttp_jinja2
        import jinja2

        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        prefix = f"/{self.token}"
        app.add_routes([
            web.get(f"{prefix}/", self.handle_index, name="index"),
            web.get(f"{prefix}/ws", self.handle_websocket, name="websocket"),
            web.get(f"{prefix}/download/{{key}}", self.handle_download, name="download"),
            web.static(f"{prefix}/static", self.statics_path, name="static"),
        ])
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        if request.host.lower() not in self.allowed_hosts:
            return web.Response(status=421, text="This server does not answer to that host name.\n")
        if request.path == f"/{self.token}/ws":
            origin = request.headers.get("Origin", "").lower()
            if origin not in self.allowed_origins:
                return web.Response(status=403, text="The websocket is only for this server's own page.\n")
            if self.sessions >= self.max_sessions:
                return web.Response(status=503, text=f"All {self.max_sessions} sessions are in use; try again later.\n")
            self.sessions += 1
            try:
                return await handler(request)
            finally:
                self.sessions -= 1
        response = await handler(request)
        if request.path == f"/{self.token}/" and isinstance(response, web.Response) and response.text:
            static = f"{self.public_url}/{self.token}/static/"
            font = ('<style>@font-face { font-family: "Roboto Mono"; '
                    f'src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf"); }}</style>')
            response.text = _WEB_FONT_LINK.sub(font, response.text)
            websocket = _origin(self.public_url).replace("http", "ws", 1)
            response.headers["Content-Security-Policy"] = (
                f"default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                f"font-src 'self'; img-src 'self' data:; connect-src 'self' {websocket}; frame-ancestors 'none'")
            response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the URL
        return response

    def initialize_logging(self) -> None:
        """textual-serve's log (lines through Rich on stderr) without the token."""
        from rich.logging import RichHandler
        from textual_serve.server import LogHighlighter

        handler = RichHandler(show_path=False, show_time=False, rich_tracebacks=True, tracebacks_show_locals=False,
                              highlighter=LogHighlighter(), console=self.console)
        handler.addFilter(_HideToken(self.token))
        logging.basicConfig(level="DEBUG" if self.debug else "INFO", format="%(message)s", handlers=[handler])

    def serve(self, debug: bool = False) -> None:
        """Serve until SIGINT/SIGTERM; the address is printed once the socket listens, not before."""
        import asyncio
        import signal

        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.request_exit)
        web.run_app(self._make_app(), host=self.host, port=self.port, handle_signals=False, loop=loop,
                    print=lambda _running: print(f"corpdir web: open {self.page_url}  (the address is new at "
                                                 f"every start; at most {self.max_sessions} sessions)", flush=True))
