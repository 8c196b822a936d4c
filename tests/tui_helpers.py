"""What a person sees: the screen's text, taken from Textual's own SVG export."""

from __future__ import annotations

import html
import re
from typing import Any, Callable

_TEXT = re.compile(r"<text[^>]*>(.*?)</text>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def screen_text(app) -> str:
    """All visible text of the app's screen (rows joined; spacing collapsed)."""
    svg = app.export_screenshot()
    parts = [html.unescape(_TAGS.sub("", m)) for m in _TEXT.findall(svg)]
    return re.sub(r"[ \u00a0]+", " ", "".join(parts))


async def wait_for(pilot, predicate, tries: int = 150, delay: float = 0.02) -> bool:
    """Let workers run until ``predicate()`` holds (bounded: no wall-clock assertion)."""
    for _ in range(tries):
        await pilot.pause(delay)
        if predicate():
            return True
    return bool(predicate())


async def settle(pilot, predicate: Callable[[], Any] = lambda: True) -> None:
    """Wait for ``predicate``, then for every worker and a last repaint: the screen as a
    person sees it once it has stopped changing (snapshot tests, screenshots)."""
    from corpdir.tui.widgets.status_bar import StatusBar

    assert await wait_for(pilot, predicate, tries=300)
    assert await wait_for(pilot, lambda: not getattr(pilot.app.screen, "details_pending", False), tries=300)
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    await pilot.pause(0.1)
    await pilot.app.workers.wait_for_complete()
    for bar in pilot.app.screen.query(StatusBar):  # sampled once a second: sample now, all requests done
        bar.refresh_text()
    await pilot.pause()


def listed(pilot, selector: str) -> Callable[[], bool]:
    """True once the list ``selector`` on the current screen has a highlighted row."""
    from corpdir.tui.widgets.virtual_list import VirtualList

    def ready() -> bool:
        found = pilot.app.screen.query(selector)
        return bool(found) and found.first(VirtualList).highlighted is not None
    return ready


class Notifications:
    """What the app told the user, as Textual's Notify messages seen through
    ``app.run_test(message_hook=notes)``: the public way to watch notifications."""

    def __init__(self) -> None:
        from textual.notifications import Notification

        self.shown: list[Notification] = []

    def __call__(self, message: Any) -> None:
        from textual.notifications import Notify

        if isinstance(message, Notify):
            self.shown.append(message.notification)

    @property
    def messages(self) -> list[str]:
        return [n.message for n in self.shown]

    def said(self, text: str) -> bool:
        """True once a notification's text contains ``text``."""
        return any(text in n.message for n in self.shown)


class LazyStart:
    """An app on the ``service``'s cache whose client is built only when first needed, a
    day after the last sync (so the app syncs once it may): ``connected`` holds the
    screen's text at the moment the client was built."""

    def __init__(self, service) -> None:  # noqa: ANN001 - a DirectoryService on the test tenant
        import time

        from corpdir.service.backend import backend_of
        from corpdir.service.directory import DirectoryService
        from corpdir.state import State
        from corpdir.tui.app import CorpdirApp
        from service_fixtures import make_service

        self.ready = make_service()  # the same tenant, reached by a client built on demand
        self.connected: list[str] = []

        def connect():  # noqa: ANN202
            self.connected.append(screen_text(self.app))
            return backend_of(self.ready).client

        self.service = DirectoryService(None, backend_of(service).store, self.ready.settings, connect=connect)
        self.service.clock = lambda: time.time() + 86400  # a day later: the cache is stale, so the app syncs
        self.app = CorpdirApp(self.service, state=State())
