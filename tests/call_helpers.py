"""What call tests share: building the app with a [calls] configuration, and waiting
for a pop-up card to show something."""

from __future__ import annotations

from typing import Any

from corpdir.config import CallsConfig
from corpdir.state import State


def desk_app(service: Any, *, read_only: bool = False, **calls: Any) -> Any:
    from corpdir.tui.app import CorpdirApp

    calls.setdefault("ring_socket", True)  # the desk asks for `corpdir ring`
    return CorpdirApp(service, state=State(), sync_on_start=False, read_only=read_only, calls=CallsConfig(**calls))


def cards(app: Any) -> list[Any]:
    from corpdir.tui.widgets.ring_card import RingCard

    return [card for card in app.screen.query(RingCard) if card.ring is not None]  # the filled ones


def card_text(app: Any) -> str:
    """The text painted in the pop-up's cards (the screen's cells inside each card's
    region, from the compositor: what a person sees there, not the widgets' data)."""
    lines = [line.strip("│ ") for card in cards(app) for line in painted(app, card.region)]
    return "\n".join(line for line in lines if line)


def painted(app: Any, region: Any) -> list[str]:
    """The screen's lines inside ``region``, as the compositor paints them."""
    from textual.strip import Strip

    update = app.screen._compositor.render_full_update()
    return ["".join(segment.text for segment in Strip.join(list(update.strips[y])).crop(region.x, region.right))
            for y in range(region.y, region.bottom)]


async def feed_ready(pilot: Any, name: str) -> bool:
    from tui_helpers import wait_for

    def ready() -> bool:
        hub = pilot.app.desk_phone.session.hub
        return hub is not None and hub.status.get(name) is not None and hub.status[name].state == "connected"

    return await wait_for(pilot, ready, tries=500)
