"""Themes: Textual's built-in ones plus ours from ``themes/*.toml`` and the user's own
from ``<config dir>/themes/*.toml``. A theme file that cannot be read is reported and
skipped; the app falls back to corpdir-dark."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

from textual.theme import Theme

from corpdir.paths import config_path

DEFAULT_THEME = "corpdir-dark"
_THEME_FIELDS = {f.name for f in fields(Theme)}


def bundled_theme_dir() -> Path:
    installed = Path(__file__).resolve().parents[1] / "themes"  # wheel: corpdir/themes
    return installed if installed.is_dir() else Path(__file__).resolve().parents[3] / "themes"  # source checkout


def user_theme_dir() -> Path:
    return config_path().parent / "themes"


def load_theme(path: Path) -> Theme:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - _THEME_FIELDS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    if "name" not in data or "primary" not in data:
        raise ValueError("a theme needs at least 'name' and 'primary'")
    return Theme(**data)


def load_themes(*folders: Path) -> tuple[list[Theme], list[str]]:
    """(themes, problems): every readable theme in ``folders``, and a message per bad file."""
    themes: list[Theme] = []
    problems: list[str] = []
    for folder in folders or (bundled_theme_dir(), user_theme_dir()):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                themes.append(load_theme(path))
            except (OSError, ValueError, TypeError, tomllib.TOMLDecodeError) as exc:
                problems.append(f"theme {path.name} skipped: {exc}")
    return themes, problems
