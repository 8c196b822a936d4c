"""Divisions through the TUI, end to end: N creates under the node the cursor is on (D2),
D edits and moves (D4; the parent chosen by name in a picker, "(top level)" sends 0), Ctrl+X deletes with its subtree (D5) after
a question that says how many go with it. Each step is proved by reading the server back
through the client and, for edits, by the recorded body holding only what was changed."""

import pytest

from corpdir.client.errors import NotFound
from corpdir.tui.forms.confirm import ConfirmScreen
from corpdir.tui.forms.model_form import ModelForm
from corpdir.tui.widgets.division_tree import DivisionTree
from form_helpers import open_form, pick, save, type_into
from tui_helpers import screen_text, wait_for
from corpdir.service.backend import backend_of


def _visible(tree):
    """The division ids of the tree's visible lines, top to bottom."""
    out = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        out.append(node.data.divisionId if node is not None and node.data is not None else None)
    return out


async def _cursor_to(pilot, tree, division_id):
    """Move the tree's cursor with the arrow keys onto ``division_id`` (visible)."""
    tree.focus()
    await pilot.pause()
    assert await wait_for(pilot, lambda: division_id in _visible(tree)), f"{division_id} not in the tree"
    for _ in range(tree.last_line + 2):
        node = tree.cursor_node
        if node is not None and node.data is not None and node.data.divisionId == division_id:
            return node
        target, here = _visible(tree).index(division_id), tree.cursor_line
        await pilot.press("down" if target > here else "up")
    raise AssertionError(f"could not reach division {division_id}")


async def _top_loaded(pilot, tree):
    assert await wait_for(pilot, lambda: 0 in tree._loaded and tree.root.children
                          and tree.root.children[0].data is not None)
    await pilot.pause()


async def _reveal(pilot, tree, *path):
    """Open each division of ``path`` in turn (space), so the last one shows."""
    await _top_loaded(pilot, tree)  # the tree is reloaded after every save
    for division_id, child_id in zip(path, path[1:]):
        node = await _cursor_to(pilot, tree, division_id)
        if not node.is_expanded:
            await pilot.press("space")
        assert await wait_for(pilot, lambda: child_id in _visible(tree)), f"{child_id} not shown under {division_id}"
    return await _cursor_to(pilot, tree, path[-1])


async def _fill_and_save(pilot, app, recorder, fields):
    form = await open_form(pilot, app)
    for key, text in fields.items():
        await type_into(pilot, form, key, text)
    recorder.clear()
    await save(pilot, form)
    assert await wait_for(pilot, lambda: not isinstance(app.screen, ModelForm)), form.errors
    return form


async def test_create_edit_move_and_delete_a_division(admin, recorder, app_for):
    client = backend_of(admin).client
    app = app_for(admin)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = app.screen.query_one(DivisionTree)
        await _top_loaded(pilot, tree)
        company = tree.root.children[0].data  # the demo tenant has one top division, the company
        parent_id, other_id = company.childDivisionIds[:2]
        parent = await client.get_division(parent_id)
        other = await client.get_division(other_id)
        root = company.divisionId

        # N on a node: a new division under it, the parent given in the form already
        await _reveal(pilot, tree, root, parent.divisionId)
        await pilot.press("N")
        form = await open_form(pilot, app)
        assert form.widget("parentDivisionId").values == [parent.divisionId]
        await _fill_and_save(pilot, app, recorder, {"divisionCode": "T-NEW", "divisionName": "新設課"})
        (method, path, body), = recorder.writes()
        assert (method, path) == ("POST", "/v1/divisions")
        assert body == {"parentDivisionId": parent.divisionId, "divisionCode": "T-NEW", "divisionName": "新設課"}
        made = (await client.list_divisions(divisionCodes=["T-NEW"])).items
        assert [(d.divisionName, d.parentDivisionId) for d in made] == [("新設課", parent.divisionId)]
        new = made[0]
        assert new.divisionId in (await client.get_division(parent.divisionId)).childDivisionIds

        # ... and one under that, so the delete later has a subtree to count
        await _reveal(pilot, tree, root, parent.divisionId, new.divisionId)
        await pilot.press("N")
        await _fill_and_save(pilot, app, recorder, {"divisionCode": "T-SUB", "divisionName": "新設係"})
        sub, = (await client.list_divisions(divisionCodes=["T-SUB"])).items
        assert sub.parentDivisionId == new.divisionId

        # D: rename and move under another top-level division; only those two fields are sent
        await _reveal(pilot, tree, root, parent.divisionId, new.divisionId)
        before = await client.get_division(new.divisionId)
        await pilot.press("D")
        form = await open_form(pilot, app)
        picker, chosen = await pick(pilot, form, "parentDivisionId", other.divisionName)
        assert chosen == [other.divisionId]
        assert new.divisionId not in [c.value for c in picker.choices]  # not under itself
        await _fill_and_save(pilot, app, recorder, {"divisionName": "改称課"})
        assert recorder.writes() == [("PATCH", f"/v1/divisions/{new.divisionId}",
                                      {"divisionName": "改称課", "parentDivisionId": other.divisionId})]
        after = await client.get_division(new.divisionId)
        assert (after.divisionName, after.parentDivisionId) == ("改称課", other.divisionId)
        assert after.model_dump(exclude={"divisionName", "parentDivisionId"}) == \
            before.model_dump(exclude={"divisionName", "parentDivisionId"})
        assert new.divisionId not in ((await client.get_division(parent.divisionId)).childDivisionIds or [])
        assert new.divisionId in (await client.get_division(other.divisionId)).childDivisionIds
        await _reveal(pilot, tree, root, other.divisionId, new.divisionId)  # the tree shows it at its new place

        # D with parent 0: to the top level
        await pilot.press("D")
        form = await open_form(pilot, app)
        assert (await pick(pilot, form, "parentDivisionId", "top level"))[1] == [0]
        await _fill_and_save(pilot, app, recorder, {})
        assert recorder.writes() == [("PATCH", f"/v1/divisions/{new.divisionId}", {"parentDivisionId": 0})]
        assert not (await client.get_division(new.divisionId)).parentDivisionId
        assert new.divisionId in [d.divisionId async for d in client.iter_divisions(firstLayer=True)]
        await _top_loaded(pilot, tree)
        assert await wait_for(pilot, lambda: new.divisionId in [n.data.divisionId for n in tree.root.children])

        # Ctrl+X: the question counts what goes with it; after yes the subtree is gone
        await _cursor_to(pilot, tree, new.divisionId)
        await pilot.press("ctrl+x")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        text = " ".join(screen_text(app).replace("█", " ").split())
        assert "改称課" in text and "the 1 division below it (2 in all)" in text
        recorder.clear()
        await pilot.press("y")
        assert await wait_for(pilot, lambda: recorder.writes()[:1] == [("DELETE", f"/v1/divisions/{new.divisionId}", b"")])
        for gone in (new.divisionId, sub.divisionId):
            with pytest.raises(NotFound):
                await client.get_division(gone)
        assert await wait_for(pilot, lambda: backend_of(admin).store.subtree_ids(new.divisionId) == [new.divisionId]
                              and not backend_of(admin).store.child_divisions(new.divisionId))
        await _top_loaded(pilot, tree)
        assert await wait_for(pilot, lambda: new.divisionId not in _visible(tree) and sub.divisionId not in _visible(tree))
