"""Choosing a file (Textual has no file dialog): a path Input with completion of the
path typed so far, and a DirectoryTree to browse; Enter on a file chooses it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import DirectoryTree, Input, Static

from corpdir.tui.text import literal
from corpdir.tui.widgets.key_bar import KeyBar
from corpdir.tui.wide_space import WideSpaceTyping


class PathSuggester(Suggester):
    """Completes the last part of a path from what is on disk."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        path = Path(value).expanduser()
        folder, stem = (path, "") if value.endswith(os.sep) else (path.parent, path.name)
        try:
            names = sorted(p.name for p in folder.iterdir() if p.name.startswith(stem) and not p.name.startswith("."))
        except OSError:
            return None
        if not names:
            return None
        return value[: len(value) - len(stem)] + names[0] if stem or value.endswith(os.sep) else None


class FilteredTree(DirectoryTree):
    def __init__(self, path: Path, suffixes: tuple[str, ...], **kwargs) -> None:
        super().__init__(path, **kwargs)
        self.suffixes = suffixes

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or not self.suffixes
                                                                    or p.suffix.lower() in self.suffixes)]


class FilePicker(WideSpaceTyping, ModalScreen[Path | None]):
    CSS_PATH = "file_picker.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="picker.cancel")]

    def __init__(self, title: str, *, start: Path | None = None, suffixes: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.start = start or Path.cwd()
        self.suffixes = suffixes

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = literal(self.title_text)
            yield Input(placeholder="path to the file (Tab completes)", id="picker-path", suggester=PathSuggester())
            yield Static(id="picker-error")
            yield FilteredTree(self.start, self.suffixes, id="picker-tree")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#picker-path", Input).focus()

    @on(Input.Submitted, "#picker-path")
    def _typed(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if path.is_file():
            self.dismiss(path)
        else:
            self.query_one("#picker-error", Static).update(literal(f"No such file: {event.value.strip()}"))

    @on(DirectoryTree.FileSelected)
    def _chosen(self, event: DirectoryTree.FileSelected) -> None:
        self.dismiss(Path(event.path))

    def action_cancel(self) -> None:
        self.dismiss(None)
