"""The ``[ui]`` section (``CORPDIR_UI_<NAME>``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class UiConfig(BaseModel):
    """How the TUI looks and what it allows."""

    model_config = ConfigDict(extra="ignore")

    theme: str | None = None  # None: the last theme chosen in the app, else corpdir-dark
    read_only: bool = False
    photos: bool = True

