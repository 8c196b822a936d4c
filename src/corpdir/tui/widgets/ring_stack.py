"""The pop-up: every call that is ringing (or just ended) as a card, side by side in a
band under the title bar of whatever screen is open. The desk phone mounts it on the current
screen and moves it when the screen changes; the cards are filled from the calls the call
session keeps (:mod:`corpdir.calls.session`).

A band docked in the layout, not a floating layer: Textual's compositor cuts every line
at the edges of all the widgets on it, underneath ones included, and a double-width
character on a cut is painted as two spaces. Over a list of Japanese names a floating
card lost characters of its own text; a docked band has nothing underneath it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Vertical

from corpdir.tui.widgets.ring_card import RingCard

if TYPE_CHECKING:
    from corpdir.calls.session import Ring

MAX_SHOWN = 3  # side by side: three fit 120 columns, two stay readable at 80


class RingStack(Vertical):
    DEFAULT_CSS = """
    RingStack { dock: top; margin-top: 1; layout: horizontal; width: 100%; height: auto; max-height: 50%; background: $background; }
    """

    def compose(self):  # noqa: ANN201
        for slot in range(MAX_SHOWN):
            yield RingCard(slot)

    def on_mount(self) -> None:
        self.display = False

    def show(self, rings: list[Ring]) -> None:
        """Fill the cards with ``rings`` (newest first) and hide the rest. Cards are held by
        call (:attr:`Ring.uid`), not by place: a call keeps its card while it is shown, so
        a call coming in front of it or leaving does not clear its photo and fetch it
        again, and the focus stays on the call it was on; the cards are moved into the
        calls' order. Nothing here waits for anything."""
        wanted = rings[:MAX_SHOWN]
        uids = {ring.uid for ring in wanted}
        cards = list(self.query_children(RingCard))
        held = {card.ring.uid: card for card in cards if card.ring is not None and card.ring.uid in uids}
        free = [card for card in cards if card.ring is None or card.ring.uid not in uids]
        order = [held.get(ring.uid) or free.pop(0) for ring in wanted]
        for card, ring in zip(order, wanted):
            card.show_ring(ring)
        for card in free:
            card.show_ring(None)
        for place, card in enumerate(order):  # left to right, newest first; the hidden ones after
            if self.children[place] is not card:
                self.move_child(card, before=self.children[place])
        self.display = bool(wanted)

    def first_card(self) -> RingCard | None:
        return next((card for card in self.query(RingCard) if card.ring is not None), None)
