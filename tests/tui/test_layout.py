"""Layout at 120x36 and 80x24: the division tree's width follows its
labels within limits and never cuts a count mid-bracket, the list's name column gets its
share at 120 columns, the header and caption never cut the column title or the sort
label, and e-mail addresses and URLs in the detail pane break only at their parts."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from corpdir.state import State
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.rendered_lines import RenderedLines
from corpdir.tui.widgets.user_detail import UserDetail
from corpdir.tui.widgets.virtual_list import VirtualList
from service_fixtures import make_server, make_service
from tui_helpers import wait_for

LONG_NAME = "品質保証部第二製品評価グループ"  # 30 cells, wider than the tree may grow
LONG_EMAIL = "kaori.tanaka-quality-assurance@corpo-denki-seisakusho.example"
LONG_URL = "https://intranet.corpo-denki.example/people/profiles/kaori-tanaka/index.html"


@pytest.fixture
async def admin():
    """The small demo tenant as the administrator, with a long division name and a person
    whose e-mail address and web page are longer than the detail pane is wide."""
    svc = make_service(make_server(), api_key="demo-admin")
    await svc.sync()
    company = (await svc.child_divisions(None))[0]
    division = (await svc.child_divisions(company.divisionId))[0]
    await svc.client.edit_division(division.divisionId, {"divisionName": LONG_NAME})
    person = next(u for u in await svc.users_window(None, limit=100) if u.userType == "REGULAR_USER")
    await svc.client.edit_user(person.userId, {"email1": LONG_EMAIL, "webUrl": LONG_URL})
    await svc.sync()
    yield svc, division.divisionId, person.userId
    await svc.close()


def painted(widget, y: int) -> str:
    """What line ``y`` of a line-API widget paints."""
    return "".join(segment.text for segment in widget.render_line(y))


async def open_long_division(pilot, app, division_id: int) -> DivisionTree:
    tree = app.screen.query_one(DivisionTree)
    assert await wait_for(pilot, lambda: 0 in tree._loaded and tree.root.children)
    tree.root.children[0].expand()
    assert await wait_for(pilot, lambda: any(n.data is not None and n.data.divisionId == division_id
                                             for n in tree._division_nodes()))
    node = next(n for n in tree._division_nodes() if n.data is not None and n.data.divisionId == division_id)
    tree.move_cursor(node)
    tree.select_node(node)
    return tree


async def look(app_size, admin):
    """The Directory at ``app_size`` with the long division chosen (sub-divisions included)
    and the long-addressed person in the pane: what each part paints."""
    from corpdir.tui.app import CorpdirApp

    service, division_id, person_id = admin
    app = CorpdirApp(service, state=State(), sync_on_start=False)
    seen: dict[str, object] = {}
    async with app.run_test(size=app_size) as pilot:
        users = app.screen.query_one("#users", VirtualList)
        assert await wait_for(pilot, lambda: users.highlighted is not None)
        seen["name_width_everyone"] = users._widths(users.line_width)[0]
        tree = app.screen.query_one(DivisionTree)
        seen["tree_width_closed"] = tree.size.width
        tree = await open_long_division(pilot, app, division_id)
        await pilot.press("s")  # and its sub-divisions: the longest caption
        assert await wait_for(pilot, lambda: app.screen.browse.division is not None and app.screen.browse.include_sub
                              and users.row_count > 0 and LONG_NAME[-3:] in str(app.screen.query_one("#caption").render()))
        await pilot.pause()
        seen["tree_width_open"] = tree.size.width
        seen["tree_lines"] = [painted(tree, y) for y in range(len(tree._tree_lines))]
        seen["header"] = painted(users, 0)
        seen["caption"] = str(app.screen.query_one("#caption").render())
        seen["caption_room"] = app.screen.query_one("#caption").content_region.width
        await pilot.press("escape")
        app.screen.query_one("#search").value = LONG_EMAIL
        assert await wait_for(pilot, lambda: users.highlighted is not None and users.highlighted.userId == person_id)
        if app.screen.query_one("#detail").display:
            detail = app.screen.query_one(UserDetail)
            assert await wait_for(pilot, lambda: detail.user is not None and detail.user.userId == person_id)
            body = app.screen.query_one("#user-body", RenderedLines)
            assert await wait_for(pilot, lambda: any("E-mail" in painted(body, y) for y in range(len(body._strips))))
        else:
            await pilot.press("enter")
            assert await wait_for(pilot, lambda: app.screen.query("#user-body"))
            body = app.screen.query_one("#user-body", RenderedLines)
            assert await wait_for(pilot, lambda: body._strips)
        seen["detail"] = [painted(body, y).rstrip() for y in range(len(body._strips))]
    return seen


def value_lines(detail: list[str], label: str) -> list[str]:
    """The lines of the value beside ``label`` in the fields grid (its continuation lines
    have nothing in the label column)."""
    start = next(i for i, line in enumerate(detail) if line.startswith(label + " "))
    column = len(detail[start]) - len(detail[start][len(label):].lstrip())
    lines = [detail[start][column:]]
    for line in detail[start + 1:]:
        if line[:column].strip():
            break
        lines.append(line[column:])
    return [line.strip() for line in lines if line.strip()]


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
async def test_tree_list_header_caption_and_addresses_fit(admin, size):
    seen = await look(size, admin)
    count = re.compile(r"\(\d+\)$")
    lines = [line.rstrip() for line in seen["tree_lines"]]
    long_line = next(line for line in lines if LONG_NAME[:3] in line)
    # the tree grew for the long name, within its limit, and cut the name, not the count
    assert seen["tree_width_open"] > seen["tree_width_closed"]
    assert seen["tree_width_open"] <= (30 if size[0] >= 110 else 26)
    assert "…" in long_line and count.search(long_line), lines
    assert all(count.search(line) or "All divisions" in line or "loading" in line for line in lines), lines
    # the header names each column whole
    assert "Division" in seen["header"] and "…" not in seen["header"], seen["header"]
    # the caption keeps the count and the order; the name gives way
    assert seen["caption"].rstrip().endswith("by name ↑") and " people · " in seen["caption"], seen["caption"]
    assert cell_len(seen["caption"].rstrip()) <= seen["caption_room"]
    # addresses break only at their parts: before "@" or ".", after "/" or "-"
    for label, address in (("E-mail", LONG_EMAIL), ("Web", LONG_URL)):
        parts = value_lines(seen["detail"], label)
        assert "".join(parts) == address, (parts, seen["detail"])
        for before, after in zip(parts, parts[1:]):
            assert after[0] in "@." or before[-1] in "/-", parts


async def test_the_name_column_is_no_narrower_at_120_columns_than_at_80(admin):
    wide = await look((120, 36), admin)
    narrow = await look((80, 24), admin)
    assert wide["name_width_everyone"] >= narrow["name_width_everyone"] >= 16


@pytest.mark.parametrize("value,width,shown", [
    ("営業企画部", 8, "営業企… "),  # the cell's pad goes after "…", not between the name and it
    ("営業企画部", 7, "営業企…"),
    ("abcdefgh", 5, "abcd…"),
    ("短い", 6, "短い  "),
])
def test_a_cut_cell_ends_in_an_ellipsis_right_after_the_text(value, width, shown):
    from corpdir.tui.text import cell

    assert cell(value, width) == shown and cell_len(shown) == width
