"""Keys for the write tests: choosing a row, from a Select, a folder in the contacts tree,
a file in the picker, as a person at the desk would (arrow keys, Enter, typing)."""

from __future__ import annotations

import io
from pathlib import Path

from textual.widgets import Select, Tree
from textual.widgets._select import SelectOverlay

from corpdir.tui.widgets.virtual_list import VirtualList
from tui_helpers import wait_for


async def select_row(pilot, app, list_id: str, predicate=lambda r: True):
    """Highlight the first row of ``list_id`` that ``predicate`` accepts, and wait until the
    screen has it as its selection; the row."""
    rows = app.screen.query_one(list_id, VirtualList)
    assert await wait_for(pilot, lambda: rows.row_count > 0 and rows.row(0) is not None)
    for i in range(rows.row_count):
        row = rows.row(i)
        if row is not None and predicate(row):
            rows.cursor = i
            rows.focus()
            await pilot.pause()
            assert await wait_for(pilot, lambda: app.screen.selected is not None
                                  and getattr(app.screen.selected, "record", app.screen.selected) == getattr(row, "record", row))
            return row
    raise AssertionError("no such row")


async def edit_regular_user(pilot, app, also=lambda u: True):
    """Select a regular user matching ``also`` in the Directory and open its edit form:
    (the user, the form)."""
    from form_helpers import open_form

    user = await select_row(pilot, app, "#users", lambda u: u.userType == "REGULAR_USER" and also(u))
    await pilot.press("E")
    return user, await open_form(pilot, app)


async def choose(pilot, select: Select, label: str, value) -> None:
    """Open the Select (Enter), walk to the option shown as ``label`` with the arrow keys,
    Enter; the Select then holds ``value``."""
    select.focus()
    await pilot.pause()
    await pilot.press("enter")
    overlay = select.query_one(SelectOverlay)
    assert await wait_for(pilot, lambda: select.expanded and overlay.highlighted is not None)
    shown = [getattr(p, "plain", str(p)) for p in (overlay.get_option_at_index(i).prompt for i in range(overlay.option_count))]
    target = shown.index(label)
    for _ in range(overlay.option_count + 1):
        if overlay.highlighted == target:
            break
        await pilot.press("down" if overlay.highlighted < target else "up")
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: select.value == value), (select.value, value)


async def tree_cursor_to(pilot, tree: Tree, matches) -> None:
    """Move a tree's cursor with up/down onto the first visible node whose data ``matches``."""
    tree.focus()
    await pilot.pause()

    def lines():
        return [tree.get_node_at_line(i) for i in range(tree.last_line + 1)]

    assert await wait_for(pilot, lambda: any(n is not None and n.data is not None and matches(n.data) for n in lines()))
    for _ in range(tree.last_line + 2):
        node = tree.cursor_node
        if node is not None and node.data is not None and matches(node.data):
            return
        target = next(i for i, n in enumerate(lines()) if n is not None and n.data is not None and matches(n.data))
        await pilot.press("down" if target > tree.cursor_line else "up")
    raise AssertionError("the tree's cursor did not reach the node")


async def choose_folder(pilot, app, directory: str, folder_num: int) -> None:
    """Contacts screen: the folder in the tree, Enter (the list then shows that folder)."""
    from corpdir.tui.widgets.folder_tree import FolderTree

    screen = app.screen
    tree = screen.query_one(FolderTree)
    await tree_cursor_to(pilot, tree, lambda s: s.directory == directory and s.folder_num == folder_num)
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: (screen.browse.scope.directory, screen.browse.scope.folder_num)
                          == (directory, folder_num))


async def pick_file(pilot, app, path: Path) -> None:
    """The file picker is open: type the path, Enter."""
    from textual.widgets import Input

    from corpdir.tui.forms.file_picker import FilePicker

    assert await wait_for(pilot, lambda: isinstance(app.screen, FilePicker)), app.screen
    picker = app.screen
    field = picker.query_one("#picker-path", Input)
    assert await wait_for(pilot, lambda: field.has_focus)
    await pilot.press(*str(path))
    await pilot.press("enter")
    assert await wait_for(pilot, lambda: app.screen is not picker)


def image_file(tmp_path: Path, name: str, fmt: str, color=(200, 30, 30), size=(64, 48), mode="RGB") -> Path:
    from PIL import Image

    path = tmp_path / name
    Image.new(mode, size, color).save(path, fmt)
    return path


def jpeg_size(data: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "JPEG"
        return image.size


def drawn(view):
    """What a PhotoView shows: its text (e.g. "no photo") or the picture object (the same
    image gives the same object, from the render cache; another image another one)."""
    content = view.content
    return content if hasattr(content, "pixels") else str(content).strip()
