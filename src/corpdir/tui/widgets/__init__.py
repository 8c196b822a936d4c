"""Widgets named for what the user sees."""

from pathlib import Path


def tcss_beside(module_file: str) -> str:
    """The styles of a widget, kept in the .tcss file beside its module (a widget has no
    CSS_PATH of its own: Textual reads those for apps and screens only)."""
    return Path(module_file).with_suffix(".tcss").read_text(encoding="utf-8")
