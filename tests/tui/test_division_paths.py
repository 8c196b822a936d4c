"""Divisions by path on the Directory screen: the demo has a 1課 under
第一営業部 and another under 第二営業部, and a receptionist must tell them apart. The list
names each by its path, shortened from the left to fit its column ('…第一営業部 › 1課'),
at 80x24 and 120x36; the detail pane names every division of the person by its full path."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest
from rich.cells import cell_len

from corpdir.division_path import SEPARATOR
from corpdir.text import printable
from corpdir.tui.widgets.rendered_lines import RenderedLines
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_server, make_service, service_division_paths
from tui_helpers import listed, screen_text, settle, wait_for

SIZES = [(80, 24), (120, 36)]
FIRST, SECOND = "本社 › 営業本部 › 第一営業部 › 1課", "本社 › 営業本部 › 第二営業部 › 1課"


def _cells_from(text: str, start: int) -> str:
    """``text`` from terminal cell ``start`` on (a kanji takes two cells)."""
    used = 0
    for i, char in enumerate(text):
        if used >= start:
            return text[i:]
        used += cell_len(char)
    return ""


async def _painted_division(pilot, users: VirtualList, index: int) -> str:
    """The division cell of row ``index`` as the list paints it (the row scrolled into view)."""
    users.cursor = index
    await pilot.pause()
    line = users.render_line(index - users.scroll_offset.y + 1).text
    widths = users._widths(users.line_width)
    cell = _cells_from(line, sum(widths[:3]) + 3).rstrip()
    return cell.rsplit(" +", 1)[0] if " +" in cell else cell  # '+1': in more divisions


async def _row_in(pilot, users: VirtualList, paths: dict[int, str], path: str) -> int:
    assert await wait_for(pilot, lambda: all(users.row(i) is not None for i in range(users.row_count)))
    return next(i for i in range(users.row_count)
                if users.row(i).divisions and paths[users.row(i).divisions[0].divisionId] == path)


@asynccontextmanager
async def directory_at(service, make_app, size):
    """The Directory at ``size`` with its list painted; every division's path per D1."""
    paths = await service_division_paths(service.client)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, listed(pilot, "#users"))
        yield pilot, app.screen.query_one("#users", VirtualList), paths


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
async def test_two_1ka_rows_are_told_apart_by_their_paths(service, make_app, size):
    async with directory_at(service, make_app, size) as (pilot, users, paths):
        shown = {}
        for path in (FIRST, SECOND):
            shown[path] = await _painted_division(pilot, users, await _row_in(pilot, users, paths, path))
        assert shown[FIRST] != shown[SECOND], shown
        for path, cell in shown.items():
            assert cell.endswith("営業部 › 1課"), cell  # the division and its parent's distinguishing end
            assert cell == path or cell.startswith("…") and path.endswith(cell[1:]), cell  # cut from the left only
        if size == (80, 24):
            assert all(cell.startswith("…") for cell in shown.values()), shown  # shortened: the top went first


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
async def test_the_detail_names_each_division_by_its_full_path(service, make_app, size):
    async with directory_at(service, make_app, size) as (pilot, users, paths):
        app = pilot.app
        users.cursor = await _row_in(pilot, users, paths, SECOND)
        person = users.highlighted
        if size == (80, 24):  # no room for the pane: Enter shows the details full screen
            users.focus()
            await pilot.press("enter")
        await settle(pilot, lambda: person.fullname in screen_text(app))
        body = app.screen.query_one(UserDetail).query_one("#user-body", RenderedLines)
        lines = [body.render_line(y - body.scroll_offset.y).text for y in range(len(body._strips))]
        start = next(i for i, line in enumerate(lines) if line.startswith("Divisions "))
        value_at = len(lines[start]) - len(lines[start][len("Divisions"):].lstrip())
        values = [lines[start][value_at:]]
        for line in lines[start + 1:]:  # a long path folds onto the next lines, beneath the value
            if line[:value_at].strip():
                break
            values.append(line[value_at:])
        expected = [paths[ref.divisionId] for ref in person.divisions]
        assert SECOND in expected
        assert "".join(values).replace(" ", "") == "".join(expected).replace(" ", "")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
async def test_a_chosen_division_is_named_by_its_path_in_caption_and_question(service, make_app, size):
    from corpdir.tui.forms.confirm import ConfirmScreen
    from corpdir.tui.widgets.division_tree import DivisionTree
    from forms.write_helpers import tree_cursor_to

    async with directory_at(service, make_app, size) as (pilot, users, paths):
        app = pilot.app
        tree = app.screen.query_one(DivisionTree)
        for name in ("本社", "営業本部", "第二営業部"):  # opened one level at a time, as a user would
            await tree_cursor_to(pilot, tree, lambda d, name=name: d.divisionName == name)
            if not tree.cursor_node.is_expanded:
                await pilot.press("space")
        await tree_cursor_to(pilot, tree, lambda d: d.divisionName == "1課")  # the one under 第二営業部
        await pilot.press("enter")
        caption = app.screen.query_one("#caption")
        assert await wait_for(pilot, lambda: " · by name" in str(caption.render())), str(caption.render())
        shown = str(caption.render()).split(" · ")[0]
        assert shown.endswith("第二営業部 › 1課") and SECOND.endswith(shown.lstrip("…")), shown
        await pilot.press("ctrl+x")  # the question names the division it would delete
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert await wait_for(pilot, lambda: SECOND.replace(" ", "") in screen_text(app).replace(" ", "").replace("\n", ""))
        await pilot.press("escape")


# -- a person in more divisions (the '+1' marker) and names Rich measures its own way -----------

ODD_PARENT = "情報シ\u3099ステ\u202eム☰部"  # a decomposed dakuten (no cell), a bidi override (shown as
# <U+202E>), an I Ching trigram (two cells to Rich, one by east_asian_width)


def _common_end(a: str, b: str) -> str:
    """The longest text both ``a`` and ``b`` end with."""
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return a[len(a) - n:]


async def _person_in_two_at(service, size):
    """Every person in more than one division as the Directory at ``size`` paints them:
    [(path of their first division per D1, how many divisions, the painted cell, its width)]."""
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    paths = {k: printable(v) for k, v in (await service_division_paths(service.client)).items()}
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    seen = []
    async with app.run_test(size=size) as pilot:
        await settle(pilot, listed(pilot, "#users"))
        users = app.screen.query_one("#users", VirtualList)
        rows = await users.source.fetch(0, users.row_count)  # the list's own order
        for index, user in enumerate(rows):
            if len(user.divisions or []) < 2:
                continue
            users.cursor = index
            assert await wait_for(pilot, lambda: users.row(index) is not None)
            await pilot.pause()
            line = users.render_line(index - users.scroll_offset.y + 1).text
            widths = users._widths(users.line_width)
            assert cell_len(line) == users.line_width, line  # the row keeps its width: nothing spills
            seen.append((paths[user.divisions[0].divisionId], len(user.divisions),
                         _cells_from(line, sum(widths[:3]) + 3).rstrip(), widths[3]))
    return paths, seen


@pytest.fixture(params=["small demo", "embedded demo", "odd parent name"])
async def tenant(request):
    """As the reception desk sees it: the small demo tenant (青木 智也 is in 情報システム部's 1課
    and 2課); the embedded demo's (500 people, 17 in two divisions, most first in the 1課 of
    第一, 第二 or 第三営業部); the small one after an administrator renamed 情報システム部 to
    characters Rich measures its own way."""
    from service_fixtures import demo_tenant

    app = make_server(demo_tenant(500)) if request.param == "embedded demo" else make_server()
    if request.param == "odd parent name":
        admin = make_service(app, api_key="demo-admin")
        paths = await service_division_paths(admin.client)
        parent = next(i for i, p in paths.items() if p.endswith("情報システム部"))
        await admin.client.edit_division(parent, {"divisionName": ODD_PARENT})
        await admin.close()
    svc = make_service(app)
    await svc.sync()
    yield svc
    await svc.close()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
async def test_a_person_in_two_divisions_is_named_as_plainly_as_anyone(tenant, size):
    """The '+1' marker never takes the cells that tell two 1課 apart: the path shows as much
    of the division's own name and its parent's as the column has room for (as for a person
    in one division), the marker only beside them, and Rich paints the cell uncut."""
    paths, seen = await _person_in_two_at(tenant, size)
    assert seen
    marked = 0
    for path, count, shown, width in seen:
        assert cell_len(shown) <= width, (shown, width)
        shown_path, marker, after = shown.partition(f" +{count - 1}")
        assert after == "" or after.startswith(" · "), shown  # the marker right after the path, or none
        marked += bool(marker)
        cut_from_the_left = shown_path.startswith("…") and path.endswith(shown_path[1:])
        assert shown_path == path or cut_from_the_left, shown
        own_and_parent = SEPARATOR.join(path.split(SEPARATOR)[-2:])
        kept = cell_len(_common_end(shown_path, own_and_parent))
        assert kept >= min(cell_len(own_and_parent), width - 1) - 1, (shown, width)  # -1: a kanji that did not fit
        if cell_len(own_and_parent) < width:  # room for both names: no other division's path ends so
            assert [p for p in paths.values() if p.endswith(shown_path.lstrip("…"))] == [path], shown
    if size == (80, 24) and any(p.endswith("第二営業部 › 1課") for p, *_ in seen):
        assert marked, seen  # where there is room beside the names, the marker is there
