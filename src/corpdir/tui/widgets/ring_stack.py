"""The pop-up: every call that is ringing (or just ended) as a card, side by side in a
band under the title bar of whatever screen is open. The desk phone mounts it on the current
screen and moves it when the screen changes; the cards are filled from the calls the call
session keeps (:mod:`corpdir.calls.session`).

A band docked in the layout, not a floating layer: Textual's compositor cuts every line
at the edges of all the widgets on it, underneath ones included, and a double-width
character on a cut is painted as two spaces. Over a list of Japanese names a floating
card lost characters of its own text; a docked band has nothing underneath it. (The
30-day chart is the exception, ring_stack.tcss: it holds no Japanese text and a band
docked on it squeezed the chart to three rows.)

The band shows as many cards as fit whole, with their borders and keys (three at 120
columns, two at 80), and "+N" for the calls it cannot show, with "<" or ">" where they are:
← and → on a card move the focus to the call beside it, scrolling the band to a hidden
one. A call that comes in scrolls the band back to the newest.

Focus: a card never takes it by itself; when the call of the focused card leaves (``d``,
``D``, its end's time is up), the focus goes to the newest card still shown, else back to
the widget that had it before the band (the form field, the list): keys typed next reach
it, not nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widget import Widget
from textual.widgets import Static

from corpdir.tui.widgets import tcss_beside
from corpdir.tui.widgets.ring_card import RingCard

if TYPE_CHECKING:
    from corpdir.calls.session import Ring

MAX_SHOWN = 3  # side by side: three fit 120 columns
CARD_COLUMNS = 40  # what a card needs to keep its lines and key hints readable


def fitting(width: int) -> int:
    """How many cards fit side by side in ``width`` columns (at least one)."""
    return max(1, min(MAX_SHOWN, width // CARD_COLUMNS))


class RingStack(Widget):  # not a Vertical: screens style their own "> Vertical" box (the chart's, a dialog's)
    DEFAULT_CSS = tcss_beside(__file__)
    SCOPED_CSS = False  # a rule names the screen it sits on (the chart's)

    def __init__(self, **kwargs) -> None:  # noqa: ANN003 - Widget's
        super().__init__(**kwargs)
        self.rings: list[Ring] = []
        self.first = 0  # the place in ``rings`` of the first card shown (← → scroll the band)
        self.return_to: Widget | None = None  # had the focus before it moved onto a card

    def compose(self):  # noqa: ANN201
        for slot in range(MAX_SHOWN):
            yield RingCard(slot)
        yield Static(id="ring-more-calls")

    def on_mount(self) -> None:
        self.display = False
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    def _focus_moved(self, old: Widget | None, new: Widget | None) -> None:
        if isinstance(new, RingCard) and old is not None and not isinstance(old, RingCard):
            self.return_to = old

    def on_resize(self) -> None:
        if min(len(self.rings), fitting(self.app.size.width)) != len(self._shown()):
            self.show(self.rings)

    def _shown(self) -> list[RingCard]:
        return [card for card in self.query_children(RingCard) if card.ring is not None]

    def show(self, rings: list[Ring]) -> None:
        """Fill the cards with ``rings`` (newest first) and hide the rest. Cards are held by
        call (:attr:`Ring.uid`), not by place: a call keeps its card while it is shown, so
        a call coming in front of it or leaving does not clear its photo and fetch it
        again, and the focus stays on the call it was on; the cards are moved into the
        calls' order. Nothing here waits for anything."""
        if {ring.uid for ring in rings} - {ring.uid for ring in self.rings}:
            self.first = 0  # a new call: the newest in view
        self.rings = list(rings)
        room = fitting(self.app.size.width)
        self.first = max(0, min(self.first, len(self.rings) - room))
        wanted = self.rings[self.first:self.first + room]
        uids = {ring.uid for ring in wanted}
        focused = self.screen.focused
        focused_call = focused.ring.uid if isinstance(focused, RingCard) and focused.ring is not None else None
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
        before, after = self.first, len(self.rings) - self.first - len(wanted)
        more = self.query_one("#ring-more-calls", Static)
        more.update(f"+{before + after}\n{'<' if before else ' '} {'>' if after else ' '}" if before + after else "")
        more.display = before + after > 0
        self.display = bool(wanted)
        if focused_call is not None and focused_call not in uids:
            self._refocus(order[0] if order else None)

    def on_ring_card_step(self, message: RingCard.Step) -> None:
        message.stop()
        uids = [ring.uid for ring in self.rings]
        ring = message.card.ring
        if ring is None or ring.uid not in uids or not 0 <= (target := uids.index(ring.uid) + message.delta) < len(uids):
            return
        room = fitting(self.app.size.width)
        self.first = min(self.first, target) if target < self.first else max(self.first, target - room + 1)
        self.show(self.rings)
        for card in self._shown():
            if card.ring is not None and card.ring.uid == uids[target]:
                card.focus()

    def _refocus(self, newest: RingCard | None) -> None:
        """The focused card's call left: to the newest card shown, else where it was."""
        back = self.return_to
        if newest is not None:
            newest.focus()
        elif back is not None and back.is_attached and back.screen is self.screen and back.focusable:
            back.focus()
        else:
            self.screen.set_focus(None)
            self.screen.focus_next()

    def first_card(self) -> RingCard | None:
        return next((card for card in self.query(RingCard) if card.ring is not None), None)
