"""The pop-up: every call that is ringing (or just ended) as a card, side by side in a
band under the title bar of whatever screen is open. The desk phone mounts it on the current
screen and moves it when the screen changes; the cards are rebuilt from the rings it keeps.

A band docked in the layout, not a floating layer: Textual's compositor cuts every line
at the edges of all the widgets on it, underneath ones included, and a double-width
character on a cut is painted as two spaces. Over a list of Japanese names a floating
card lost characters of its own text; a docked band has nothing underneath it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Vertical

from corpdir.tui.widgets.ring_card import RingCard

if TYPE_CHECKING:
    from corpdir.tui.desk_phone import Ring

MAX_SHOWN = 3  # side by side: three fit 120 columns, two stay readable at 80


class RingStack(Vertical):
    DEFAULT_CSS = """
    RingStack { dock: top; margin-top: 1; layout: horizontal; width: 100%; height: auto; max-height: 50%; background: $background; }
    """

    def show(self, rings: list[Ring]) -> None:
        """Make the cards match ``rings`` (newest first): update the ones already shown,
        add new ones at the top, remove the dismissed. Nothing here waits for anything."""
        shown = {card.ring.uid: card for card in self.query(RingCard)}
        wanted = rings[:MAX_SHOWN]
        for ring in wanted:
            card = shown.pop(ring.uid, None)
            if card is not None:
                card.update_ring(ring)
        for card in shown.values():
            card.remove()
        new = [RingCard(ring) for ring in wanted if not self.query(f"#ring-{ring.uid}")]
        if new:
            first = self.children[0] if self.children else None
            self.mount(*new, before=first) if first is not None else self.mount(*new)
        self.display = bool(wanted)

    def first_card(self) -> RingCard | None:
        cards = self.query(RingCard)
        return cards.first() if cards else None
