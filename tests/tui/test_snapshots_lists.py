"""SVG snapshots of the list screens' parts: both filter bars (open, with a value typed,
with the type dropdown open) and the J pop-up (jump to a kana row), at 80x24 and 120x36. Same still pictures as
test_snapshots.py (its frozen clock, time zone and cursor)."""

from __future__ import annotations

import pytest

from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
from tui_helpers import listed, settle


async def _filters(pilot, screen_key: str, list_id: str) -> None:
    if screen_key:
        await pilot.press(screen_key)
    await settle(pilot, listed(pilot, list_id))
    await pilot.press("f")
    await settle(pilot, lambda: pilot.app.screen.query_one("#filters").has_class("-shown"))


async def directory_filters(pilot) -> None:
    await _filters(pilot, "", "#users")


async def directory_filters_typed(pilot) -> None:
    await _filters(pilot, "", "#users")
    pilot.app.screen.query_one("#filter-phoneNum").focus()
    await pilot.press(*"0330")
    await settle(pilot, lambda: pilot.app.screen.browse.filters)


async def directory_filters_dropdown(pilot) -> None:
    await _filters(pilot, "", "#users")
    await pilot.press("enter")  # the type select has the focus: open its options
    await settle(pilot)


async def contacts_filters(pilot) -> None:
    await _filters(pilot, "f2", "#contacts")


async def contacts_filters_typed(pilot) -> None:
    await _filters(pilot, "f2", "#contacts")
    pilot.app.screen.query_one("#filter-companyName").value = "株式会社"  # as an IME commits it
    await settle(pilot, lambda: pilot.app.screen.browse.filters and listed(pilot, "#contacts")())


async def contacts_filters_dropdown(pilot) -> None:
    await _filters(pilot, "f2", "#contacts")
    pilot.app.screen.query_one("#filter-ocrStatus").focus()
    await pilot.press("enter")
    await settle(pilot)


async def directory_jump(pilot) -> None:
    """J on a list by name: the pop-up of kana rows and letters."""
    from corpdir.tui.screens.jump_row import JumpToRow

    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("J")
    await settle(pilot, lambda: isinstance(pilot.app.screen, JumpToRow))


SCENES = {name: scene for name, scene in globals().items()
          if not name.startswith("_") and name.endswith(("_filters", "_typed", "_dropdown", "_jump"))}


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x36", "80x24"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_list_part(scene, size, snap_compare, tmp_path):
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=SCENES[scene], terminal_size=size)
