"""What the user wrote shows at once: a deleted record leaves
the list, its count and the pane; the division tree keeps the user's place after a
division is created, moved (to an open or a closed division) or deleted."""

import pytest

from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.widgets.division_tree import DivisionTree
from corpdir.tui.widgets.virtual_list import VirtualList
from form_helpers import open_form, pick, save, type_into
from forms.write_helpers import tree_cursor_to
from tui_helpers import screen_text, wait_for


async def delete_and_confirm(pilot, app, rows: VirtualList, is_it) -> None:
    """Delete, yes: the selected row leaves the list at once, and no row is left waiting for
    a record that is gone."""
    count = rows.row_count
    rows.focus()
    await pilot.press("delete")
    assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    assert await wait_for(pilot, lambda: rows.row_count == count - 1)
    left = [rows.row(i) for i in range(rows.row_count)]
    assert None not in left and not any(is_it(r) for r in left)


async def test_a_deleted_person_leaves_the_search_the_pane_and_the_tree_count(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        users = screen.query_one("#users", VirtualList)
        tree = screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: users.highlighted is not None and tree.root.children)
        everyone = await admin.users_window(None, limit=1000)
        person = next(u for u in everyone if u.divisions and u.fullname
                      and sum(1 for v in everyone if v.fullname and v.fullname.split()[0] == u.fullname.split()[0]) > 1)
        surname = person.fullname.split()[0]
        division = person.divisions[0].divisionId
        before = await admin.member_count(division)
        screen.query_one("#search").value = surname
        assert await wait_for(pilot, lambda: screen.browse.text == surname and users.row_count > 1
                              and not screen.workers)  # the service's answer is in
        count = users.row_count
        shown = [users.row(i) for i in range(count)]
        users.cursor = next(i for i, u in enumerate(shown) if u is not None and u.userId == person.userId)
        assert await wait_for(pilot, lambda: screen.selected is not None and screen.selected.userId == person.userId)
        await delete_and_confirm(pilot, app, users, lambda u: u.userId == person.userId)
        left = f"· {count - 1} {'person' if count == 2 else 'people'} ·"
        assert await wait_for(pilot, lambda: left in screen_text(app)), screen_text(app)
        assert screen.selected is None or screen.selected.userId != person.userId
        assert await admin.member_count(division) == before - 1
        labels = [str(n.label) for n in tree._division_nodes() if n.data is not None and n.data.divisionId == division]
        if labels:  # the division is in sight: its count follows
            assert await wait_for(pilot, lambda: all(
                (f"({before - 1})" in str(n.label)) or before == 1
                for n in tree._division_nodes() if n.data is not None and n.data.divisionId == division))


async def test_the_tree_keeps_its_place_after_a_division_is_created(admin, recorder, app_for):
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = app.screen.query_one(DivisionTree)
        assert await wait_for(pilot, lambda: 0 in tree._loaded and tree.root.children)
        company = tree.root.children[0]
        parent_id = company.data.childDivisionIds[0]
        await tree_cursor_to(pilot, tree, lambda d: d.divisionId == company.data.divisionId)
        await pilot.press("space")  # open the company
        await tree_cursor_to(pilot, tree, lambda d: d.divisionId == parent_id)
        await pilot.press("N")
        form = await open_form(pilot, app)
        await type_into(pilot, form, "divisionCode", "T-KEEP")
        await type_into(pilot, form, "divisionName", "新設課")
        await save(pilot, form)

        def placed() -> bool:
            node, top = tree.cursor_node, tree.root.children[0]  # the nodes were made again
            return (node is not None and node.data is not None and node.data.divisionId == parent_id
                    and top.is_expanded and node.parent is top)

        assert await wait_for(pilot, placed, tries=300), (str(tree.cursor_node.label), tree._return_to, parent_id)


def _node(tree, division_id):
    return next((n for n in tree._division_nodes() if n.data is not None and n.data.divisionId == division_id), None)


async def _open(pilot, tree, *path):
    """Open each division of ``path`` with the keys, as a person would."""
    for division_id in path:
        await tree_cursor_to(pilot, tree, lambda d, wanted=division_id: d.divisionId == wanted)
        if not _node(tree, division_id).is_expanded:
            await pilot.press("space")
        assert await wait_for(pilot, lambda: _node(tree, division_id).children
                              and all(c.data is not None for c in _node(tree, division_id).children))


async def _two_branches(pilot, app, admin, open_b=True):
    """The company open, its first two divisions A and B open (B only with ``open_b``):
    (tree, company id, A, B, A's first child), the cursor on that child."""
    tree = app.screen.query_one(DivisionTree)
    assert await wait_for(pilot, lambda: 0 in tree._loaded and tree.root.children)
    company = tree.root.children[0].data
    a_id, b_id = company.childDivisionIds[:2]
    await _open(pilot, tree, company.divisionId, a_id, *([b_id] if open_b else []))
    child = (await admin.client.get_division(a_id)).childDivisionIds[0]
    await tree_cursor_to(pilot, tree, lambda d: d.divisionId == child)
    return tree, company.divisionId, a_id, b_id, child


@pytest.mark.parametrize("open_b", [True, False], ids=["to-an-open-division", "to-a-closed-one"])
async def test_the_tree_keeps_its_place_after_a_division_is_moved(admin, recorder, app_for, open_b):
    """The moved division keeps the cursor, now under its new parent (opened for it); what
    was open stays open."""
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        tree, company_id, a_id, b_id, moved = await _two_branches(pilot, app, admin, open_b)
        await pilot.press("D")
        form = await open_form(pilot, app)
        assert (await pick(pilot, form, "parentDivisionId", (await admin.client.get_division(b_id)).divisionName))[1] == [b_id]
        await save(pilot, form)

        def placed() -> bool:
            node = tree.cursor_node
            return (node is not None and node.data is not None and node.data.divisionId == moved
                    and node.parent is not None and node.parent.data is not None and node.parent.data.divisionId == b_id
                    and all(_node(tree, d) is not None and _node(tree, d).is_expanded for d in (company_id, a_id, b_id)))

        assert await wait_for(pilot, placed, tries=300), str(tree.cursor_node.label) if tree.cursor_node else None
        assert (await admin.client.get_division(moved)).parentDivisionId == b_id


async def test_the_tree_keeps_its_place_after_a_division_is_deleted(admin, recorder, app_for):
    """The cursor takes the next division of the same parent (else the one before, else the
    parent); the open divisions stay open and the deleted one is gone from the tree."""
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        tree, company_id, a_id, b_id, gone = await _two_branches(pilot, app, admin)
        siblings = (await admin.client.get_division(a_id)).childDivisionIds
        expected = siblings[1] if len(siblings) > 1 else a_id
        await pilot.press("ctrl+x")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")

        def placed() -> bool:
            node = tree.cursor_node
            return (_node(tree, gone) is None and node is not None and node.data is not None
                    and node.data.divisionId == expected
                    and all(_node(tree, d) is not None and _node(tree, d).is_expanded for d in (company_id, a_id, b_id)))

        assert await wait_for(pilot, placed, tries=300), (str(tree.cursor_node.label) if tree.cursor_node else None)


def _folder_labels(tree) -> dict[str, str]:
    """Each line of the folder tree by its name: {'All contacts': 'All contacts (226)', ...}."""
    lines = {}
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is not None:
            lines[node.data.name] = str(node.label)
    return lines


@pytest.mark.parametrize("from_search", [False, True], ids=["folder", "search"])
async def test_a_deleted_contact_leaves_the_list_the_pane_and_every_count(reception, recorder, app_for, from_search):
    from corpdir.tui.widgets.contact_detail import ContactDetail
    from corpdir.tui.widgets.folder_tree import FolderTree
    from forms.write_helpers import choose_folder, select_row

    app = app_for(reception)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f2")
        screen = app.screen
        tree = screen.query_one(FolderTree)
        assert await wait_for(pilot, lambda: tree.root.children and "(" in str(tree.root.label))
        await choose_folder(pilot, app, "PERSONAL", 102)
        rows = screen.query_one("#contacts", VirtualList)
        assert await wait_for(pilot, lambda: rows.row_count > 1)
        folder_name = screen.browse.scope.name
        before = _folder_labels(tree)
        total, personal = (await reception.count_contacts(), await reception.count_contacts("PERSONAL"))
        in_folder = await reception.count_contacts("PERSONAL", 102)
        assert before["All contacts"] == f"All contacts ({total})" and before[folder_name] == f"{folder_name} ({in_folder})"
        contact = await select_row(pilot, app, "#contacts", lambda c: c.fullname)
        if from_search:
            screen.query_one("#search").value = contact.fullname
            assert await wait_for(pilot, lambda: screen.browse.text and not screen.workers and any(
                rows.row(i) is not None and rows.row(i).contactId == contact.contactId for i in range(rows.row_count)))
            contact = await select_row(pilot, app, "#contacts", lambda c: c.contactId == contact.contactId)
        count = rows.row_count
        detail = screen.query_one(ContactDetail)
        assert await wait_for(pilot, lambda: detail.contact is not None and detail.contact.contactId == contact.contactId)
        await delete_and_confirm(pilot, app, rows, lambda c: c.contactId == contact.contactId)
        assert detail.contact is None or detail.contact.contactId != contact.contactId
        word = "contact" if count - 1 == 1 else "contacts"
        assert await wait_for(pilot, lambda: f"· {count - 1} {word}" in screen_text(app)), screen_text(app)
        after = {"All contacts": f"All contacts ({total - 1})", "Personal": f"Personal ({personal - 1})",
                 folder_name: f"{folder_name} ({in_folder - 1})"}
        assert await wait_for(pilot, lambda: all(_folder_labels(tree).get(k) == v for k, v in after.items()),
                              tries=300), _folder_labels(tree)
