"""The searchable list tells its screen what the user did, as typed messages, and shows
what the screen gives it: typing is a SearchChanged, a filter a FiltersChanged, moving to
a row a Highlighted, Enter an Opened; the caption and the empty text are the screen's."""

from textual.app import App, ComposeResult
from textual.containers import Grid
from textual.widgets import Input

from corpdir.tui.widgets.list_columns import Column
from corpdir.tui.widgets.row_sources import ListSource
from corpdir.tui.widgets.searchable_list import SearchableList
from tui_helpers import wait_for


class Filters(Grid):
    def compose(self) -> ComposeResult:
        yield Input(id="filter-name")

    def summary(self) -> str:
        return "name " + self.query_one(Input).value

    def clear(self) -> None:
        self.query_one(Input).value = ""


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.filters = Filters(id="filters")
        self.names = SearchableList([Column("Name", lambda r: r)], filters=self.filters, placeholder="Search",
                                    list_id="names", empty_text="Nothing yet.")
        self.heard: list[SearchableList.SearchChanged | SearchableList.FiltersChanged | SearchableList.Counted
                         | SearchableList.Highlighted] = []

    def compose(self) -> ComposeResult:
        yield self.names

    def on_mount(self) -> None:
        self.names.source = ListSource(["山田", "佐藤", "鈴木"])
        self.names.focus_list()

    def on_searchable_list_search_changed(self, message: SearchableList.SearchChanged) -> None:
        self.heard.append(message)

    def on_searchable_list_filters_changed(self, message: SearchableList.FiltersChanged) -> None:
        self.heard.append(message)

    def on_searchable_list_counted(self, message: SearchableList.Counted) -> None:
        self.heard.append(message)
        self.names.show_count(lambda count, more, width: f"{count} names", "No name matches.")

    def on_searchable_list_highlighted(self, message: SearchableList.Highlighted) -> None:
        self.heard.append(message)

    def on_searchable_list_opened(self, message: SearchableList.Opened) -> None:
        self.heard.append(message)


def heard(app: Host, kind: type) -> list:
    return [m for m in app.heard if type(m) is kind]


async def test_what_the_user_does_goes_up_as_typed_messages():
    app = Host()
    async with app.run_test() as pilot:
        assert await wait_for(pilot, lambda: heard(app, SearchableList.Highlighted))
        assert heard(app, SearchableList.Counted)[0].count == 3
        assert heard(app, SearchableList.Highlighted)[0].row == "山田"
        await pilot.press("down", "enter")
        assert await wait_for(pilot, lambda: heard(app, SearchableList.Opened))
        assert heard(app, SearchableList.Opened)[0].row == "佐藤"
        app.names.focus_search()
        await pilot.press("s", "a")
        assert await wait_for(pilot, lambda: [m.text for m in heard(app, SearchableList.SearchChanged)] == ["s", "sa"])
        app.filters.query_one(Input).focus()
        await pilot.press("x")
        assert await wait_for(pilot, lambda: heard(app, SearchableList.FiltersChanged))


async def test_the_screen_gives_the_caption_and_the_empty_text():
    app = Host()
    async with app.run_test() as pilot:
        assert await wait_for(pilot, lambda: "3 names" in str(app.names.caption.render()))
        app.names.source = ListSource([])
        assert await wait_for(pilot, lambda: "0 names" in str(app.names.caption.render()))
        assert app.names.rows.empty_text == "No name matches."


async def test_clear_empties_the_search_and_the_filters_and_goes_back_to_the_list():
    app = Host()
    async with app.run_test() as pilot:
        app.names.focus_search()
        await pilot.press("s")
        app.filters.query_one(Input).value = "x"
        await pilot.pause()
        app.names.clear(app.filters)
        await pilot.pause()
        assert app.names.search.value == "" and app.filters.query_one(Input).value == ""
        assert app.focused is app.names.rows


async def test_down_from_the_search_box_goes_into_the_list_with_the_text_kept():
    """↓ in the box goes down into the list under it (as Enter does), the search kept."""
    app = Host()
    async with app.run_test() as pilot:
        app.names.focus_search()
        await pilot.press("s", "a")
        assert app.focused is app.names.search
        await pilot.press("down")
        assert await wait_for(pilot, lambda: app.focused is app.names.rows)
        assert app.names.search.value == "sa"
        app.filters.query_one(Input).focus()  # a filter field is not the search box: ↓ stays there
        await pilot.press("down")
        await pilot.pause()
        assert app.focused is app.filters.query_one(Input)
