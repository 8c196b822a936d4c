"""The README's screenshots: each screen of the TUI at 120x36, as SVG, on the demo tenant.

    python bench/make_screenshots.py [--out screenshots] [--data bench/out/tui-demo]

The tenant is the embedded default (generated with the standard size and seed), so the
pictures show exactly what `corpdir` shows on a first start. Its data and cache live in
``--data`` (generated on the first run), never in your own corpdir folders. The status
line's clock is held at the moment of the sync, so it says "synced just now".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from corpdir.service.backend import backend_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from tui_helpers import listed, settle  # noqa: E402 - the snapshot tests' own settling rules

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 36)


def isolate(data: Path) -> None:
    for name in [k for k in os.environ if k.startswith("CORPDIR_")]:
        del os.environ[name]
    os.environ.update(CORPDIR_DATA_DIR=str(data / "data"), CORPDIR_CACHE_DIR=str(data / "cache"),
                      CORPDIR_STATE_DIR=str(data / "screenshot-state"), CORPDIR_CONFIG=os.devnull,
                      TZ="Asia/Tokyo")
    time.tzset()


def build_app() -> Any:
    from corpdir.config import load_settings
    from corpdir.service.directory import DirectoryService
    from corpdir.state import State
    from corpdir.tui.app import CorpdirApp

    everything = load_settings()
    settings, ui = everything.service, everything.ui
    assert settings.is_demo, "the screenshots are of the embedded demo tenant"

    async def fill() -> float:
        service = DirectoryService.open(settings)
        await service.sync.run()
        at = backend_of(service).store.synced_at("users")
        await service.close()
        return at

    synced_at = asyncio.run(fill())
    service = DirectoryService.open(settings)
    service.clock = lambda: synced_at
    state_file = Path(os.environ["CORPDIR_STATE_DIR"]) / "state.json"
    state_file.unlink(missing_ok=True)  # no recent lookups from an earlier run
    return CorpdirApp(service, ui, state=State(state_file), sync_on_start=False, owns_service=True)




async def directory(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    tree = pilot.app.screen.query_one("#tree")
    top = next(n for n in tree.root.children if n.data is not None)
    top.expand()  # the company's first level of divisions
    await settle(pilot, lambda: any(c.data is not None for c in top.children))
    await pilot.press("down", "down", "down")  # someone with a photo and a profile
    await settle(pilot, lambda: True)


async def search(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("slash", *"たなか")  # hiragana finds タナカ / 田中
    await settle(pilot, lambda: pilot.app.screen.browse.text and listed(pilot, "#users")())


async def contacts(pilot) -> None:
    await pilot.press("f2")
    await settle(pilot, listed(pilot, "#contacts"))


async def calls(pilot) -> None:
    await pilot.press("f3")
    await settle(pilot, listed(pilot, "#calls"))


async def lookup(pilot) -> None:
    await pilot.press("f4")
    await settle(pilot, lambda: pilot.app.screen.query("#numbers"))
    users = await pilot.app.service.people.window(None, limit=40)
    with_phone = [u.phoneNum for u in users if u.phoneNum]
    written = ["+81 " + with_phone[0][1:], with_phone[1].replace("-", ""), "03-0000-0009"]
    await pilot.press(*", ".join(written), "enter")
    await settle(pilot, listed(pilot, "#results"))


SCENES: dict[str, Callable[[Any], Awaitable[None]]] = {
    "directory": directory,
    "directory-search": search,
    "contacts": contacts,
    "calls": calls,
    "lookup": lookup,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "out" / "tui-demo")
    parser.add_argument("--only", choices=list(SCENES))
    args = parser.parse_args()
    isolate(args.data.resolve())
    from textual._doc import take_svg_screenshot
    from textual.widgets import Input

    Input.cursor_blink = False  # the same picture every time
    args.out.mkdir(parents=True, exist_ok=True)
    for name, scene in SCENES.items():
        if args.only and name != args.only:
            continue
        svg = take_svg_screenshot(build_app(), run_before=scene, terminal_size=SIZE, title=f"corpdir — {name}")
        path = args.out / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(svg) // 1024} KiB")


if __name__ == "__main__":
    main()
