"""The private parts of Textual corpdir relies on, all in this module.

Textual offers no public way to do five things the desk needs:

- hide a binding from the footer, the key bar and the palette by the action it names, on
  every screen at once (the read-only kiosk): ``App._check_action_state``, which
  ``Screen.active_bindings`` asks about each binding;
- know which node and action an action string names, as the app will run it:
  ``App._parse_action``;
- update a scrolling widget's scrollbars after its content grew or shrank, without the
  re-layout of the whole screen that setting ``virtual_size`` costs (20-60 ms with a
  detail pane of fields): ``Widget._scroll_update``;
- tell Textual that a screen made for a mode is styled by the stylesheet as it stands:
  ``Screen._css_update_count``, which ``App.switch_mode`` compares with the app's;
- send the terminal the whole first screen in one write: Textual draws the first frame
  while it holds repaints for the app's start and drops it, though its compositor counts
  it as shown (``App._display``, ``App._batch_count``, ``Compositor._dirty_regions``).

Each is used only through this module, and ``tests/tui/test_textual_compat.py`` checks
that they still exist with the signatures and effects used here, so a Textual upgrade
that changes them fails there, by name, rather than somewhere in a screen.
"""

from __future__ import annotations

from typing import Any, Mapping

from textual.app import App
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView


def parse_action(app: App[Any], action: Any, default_namespace: DOMNode,
                 namespaces: Mapping[str, DOMNode] | None = None) -> tuple[DOMNode, str, tuple[object, ...]]:
    """The node an action runs on, its name and its parameters (``"app.switch_mode('x')"``
    -> the app, ``switch_mode``, ``('x',)``)."""
    return app._parse_action(action, default_namespace, namespaces)


def set_scroll_range(view: ScrollView, size: Size) -> None:
    """Give ``view`` a new virtual size, repainting it rather than re-laying out its screen.

    ``virtual_size`` is a reactive with ``layout=True``: setting it re-lays out the whole
    screen, on every keystroke of a search or every move through a list. A widget of fixed
    size whose content length changes only needs its own scrollbars updated, which re-lays
    out only when a scrollbar appears or goes."""
    if size != view.virtual_size:
        view.set_reactive(ScrollView.virtual_size, size)
        view._scroll_update(size)


def styled_with_app(screen: Screen, app: App[Any]) -> None:
    """Mark ``screen``, not yet mounted, as styled by ``app``'s stylesheet as it stands.

    Textual counts each screen's CSS refreshes and re-parses the whole stylesheet, and
    restyles every node of the app, for a screen whose count is behind the app's: a new
    screen's always is, so the first switch to a mode did it twice before its first paint
    (~8 ms of the TUI's start). A screen not yet mounted has no node to restyle: its
    widgets take their styles from the stylesheet when they mount."""
    screen._css_update_count = app._css_update_count


class WholeFirstFrame(App[None]):
    """An app whose first screen reaches the terminal whole, in its first write.

    Textual lays out and draws the first screen while it holds repaints for the app's
    Compose and Mount (``App.batch_update``): ``App._display`` drops that frame, and the
    compositor has already cleared what it had to draw, as if it had been written. The next
    writes held only the widgets changed since (the list's rows, the tree): the terminal
    showed the rows with the search box, the detail pane and the frame lines missing until
    something repainted them, 50-100 ms later. A frame dropped so leaves the whole screen
    to draw: the first refresh after the hold writes all of it."""

    def _display(self, screen: Screen, renderable: Any) -> None:
        super()._display(screen, renderable)
        if self._batch_count and renderable is not None:
            compositor = screen._compositor
            compositor._dirty_regions.add(compositor.size.region)


class GatedApp(App[None]):
    """An app that may refuse actions by name: a refused action's binding is not shown
    (footer, key bar, palette), and it does not run however it is invoked (key, palette,
    click). While ``gated`` is set, :meth:`refuses` says which; :meth:`refused` tells the
    user. Unset, no action is parsed twice."""

    gated = False

    def refuses(self, namespace: DOMNode, action_name: str) -> bool:
        return False

    def refused(self, action_name: str) -> None:
        """An action that :meth:`refuses` was asked for."""

    def _check_action_state(self, action: str, default_namespace: DOMNode) -> bool | None:
        if self.gated:
            target, name, _ = parse_action(self, action, default_namespace)
            if self.refuses(target, name):
                return False
        return super()._check_action_state(action, default_namespace)

    async def run_action(self, action: Any, default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        if self.gated:
            target, name, _ = parse_action(self, action, self if default_namespace is None else default_namespace,
                                           namespaces)
            if self.refuses(target, name):
                self.refused(name)
                return True
        return await super().run_action(action, default_namespace, namespaces)
