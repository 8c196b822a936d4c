"""SVG snapshots of the bulk screen (a CSV's preview and its problems, with markup and
escapes in the file shown as text) and the export dialog, at 120x36 and 80x24."""

from __future__ import annotations

import pytest

from corpdir.tui.screens.bulk import BulkScreen
from corpdir.tui.screens.export import SUFFIX, ExportScreen
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
from tui_helpers import listed, settle

CSV = ("loginId,destinationId,destinationName\n"
       "reception,5001,受付前\n"
       "[reverse]x[/reverse],5002,\"[link=file:///etc/passwd]二階[/link]\"\n"
       "reception,five,\"abc\u202edcba \x1b]52;c;AAAA\x07\"\n")


async def bulk_preview(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("b")
    await settle(pilot, lambda: isinstance(pilot.app.screen, BulkScreen))
    await pilot.press(*"[rooms].csv", "enter")
    await settle(pilot, lambda: pilot.app.screen.parsed is not None)


async def export_dialog(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("x")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ExportScreen))


SCENES = {"bulk_preview": bulk_preview, "export_dialog": export_dialog}


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x36", "80x24"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_output_screen(scene, size, snap_compare, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    (work / "[rooms].csv").write_text(CSV, encoding="utf-8")
    monkeypatch.chdir(work)  # the bulk path is typed relative; the export's default is a fixed name
    monkeypatch.setattr(ExportScreen, "_default_path", lambda self, fmt: f"corpdir-{self.kind}{SUFFIX[fmt]}")
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=SCENES[scene], terminal_size=size)
