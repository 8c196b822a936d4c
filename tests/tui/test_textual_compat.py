"""The private parts of Textual that corpdir.tui.textual_compat uses still exist, with the
signatures and effects the module relies on. A Textual upgrade that renames or changes
one fails here, by name, rather than as a kiosk that offers writes again or a list whose
scrollbar no longer follows its rows."""

import inspect

import pytest

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from corpdir.tui.textual_compat import GatedApp, WholeFirstFrame, parse_action, set_scroll_range, styled_with_app


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_private_names_used_keep_their_signatures():
    assert parameters(App._parse_action) == ["self", "action", "default_namespace", "namespaces"]
    assert parameters(App._check_action_state) == ["self", "action", "default_namespace"]
    assert parameters(Widget._scroll_update) == ["self", "virtual_size"]
    assert parameters(App._display) == ["self", "screen", "renderable"]


@pytest.mark.parametrize("whole", [True, False], ids=["whole-first-frame", "plain-textual"])
async def test_a_frame_dropped_while_repaints_are_held_leaves_the_whole_screen_to_draw(whole):
    """What WholeFirstFrame relies on: ``App._display`` is given the frames drawn while
    Textual holds repaints (``_batch_count`` up), and a whole-screen region among the
    compositor's dirty regions makes its next update a full one. Plain Textual forgets the
    dropped frame: its next update holds only what changed since."""
    from textual._compositor import LayoutUpdate

    class Plain(App):
        def compose(self) -> ComposeResult:
            yield Static("x")

    class Whole(WholeFirstFrame, Plain):
        pass

    async with (Whole if whole else Plain)().run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        compositor = screen._compositor
        with pilot.app.batch_update():
            screen.query_one(Static).update("y")
            screen._compositor.update_widgets({screen.query_one(Static)})
            screen._compositor_refresh()  # drawn while held: dropped
        assert (compositor.size.region in compositor._dirty_regions) is whole
        assert isinstance(compositor.render_update(), LayoutUpdate) is whole


class Desk(Screen):
    BINDINGS = [Binding("w", "write", "Write"), Binding("r", "read", "Read")]

    def __init__(self) -> None:
        super().__init__()
        self.ran: list[str] = []

    def action_write(self) -> None:
        self.ran.append("write")

    def action_read(self) -> None:
        self.ran.append("read")


class Kiosk(GatedApp):
    def __init__(self, gated: bool) -> None:
        super().__init__()
        self.gated = gated
        self.told: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(Desk())

    def refuses(self, namespace, action_name: str) -> bool:
        return action_name == "write"

    def refused(self, action_name: str) -> None:
        self.told.append(action_name)


async def test_parse_action_names_the_node_the_action_and_its_parameters():
    app = Kiosk(gated=False)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = app.screen
        assert parse_action(app, "app.switch_mode('calls')", screen) == (app, "switch_mode", ("calls",))
        assert parse_action(app, "read", screen) == (screen, "read", ())


async def test_a_gated_app_hides_and_refuses_what_it_refuses_and_nothing_else():
    app = Kiosk(gated=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        shown = app.screen.active_bindings
        assert "r" in shown and "w" not in shown
        await pilot.press("w", "r")
        await pilot.pause()
        assert app.screen.ran == ["read"]
        assert app.told == ["write"]  # the key: refused, and the user told
        assert await app.run_action("write", app.screen) and app.screen.ran == ["read"]
        assert app.told == ["write", "write"]


async def test_an_open_app_offers_every_action():
    app = Kiosk(gated=False)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert {"r", "w"} <= set(app.screen.active_bindings)
        await pilot.press("w")
        await pilot.pause()
        assert app.screen.ran == ["write"] and app.told == []


class Lines(ScrollView):
    pass


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Lines()


async def test_set_scroll_range_updates_the_scrollbar_to_the_new_length():
    app = ListApp()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        view = app.query_one(Lines)
        set_scroll_range(view, Size(30, 100))
        assert view.virtual_size == Size(30, 100)
        assert view.show_vertical_scrollbar and view.vertical_scrollbar.window_virtual_size == 100
        set_scroll_range(view, Size(30, 3))
        assert view.virtual_size == Size(30, 3) and not view.show_vertical_scrollbar


class Place(Screen):
    def compose(self) -> ComposeResult:
        yield Static("here", id="here")


class Modes(App[None]):
    CSS = "#here { color: #ff0000; }"

    def __init__(self, styled: bool) -> None:
        super().__init__()
        self.styled = styled
        self.add_mode("place", self._place)
        self.reparses = 0

    def _place(self) -> Place:
        screen = Place()
        if self.styled:
            styled_with_app(screen, self)
        return screen

    def on_mount(self) -> None:
        reparse = self.stylesheet.reparse

        def counted() -> None:
            self.reparses += 1
            reparse()

        self.stylesheet.reparse = counted
        self.switch_mode("place")


async def test_a_screen_styled_with_the_app_is_shown_styled_without_parsing_the_stylesheet_again():
    for styled, reparses in ((False, 2), (True, 0)):  # Textual's own way, then corpdir's
        app = Modes(styled)
        async with app.run_test() as pilot:
            while not (isinstance(app.screen, Place) and app.screen.query("#here")):
                await pilot.pause()
            assert app.screen.query_one("#here", Static).styles.color.hex == "#FF0000"
            assert app.reparses == reparses, styled
