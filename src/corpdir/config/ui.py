"""The ``[ui]`` section (``CORPDIR_UI_<NAME>``) and the ``[keymap]`` table's reading."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class UiConfig(BaseModel):
    """How the TUI looks and what it allows."""

    model_config = ConfigDict(extra="ignore")

    theme: str | None = None  # None: the last theme chosen in the app, else corpdir-dark
    read_only: bool = False
    photos: bool = True


def dotted(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A table with its nested tables flattened to dotted names: ``directory.search = "f6"``
    written without quotes is, to TOML, a table ``directory`` holding ``search``."""
    flat: dict[str, Any] = {}
    for name, value in table.items():
        if isinstance(value, dict):
            flat.update(dotted(value, f"{prefix}{name}."))
        else:
            flat[f"{prefix}{name}"] = value
    return flat
