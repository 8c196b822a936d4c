"""How a busy lamp looks, wherever it is shown (the desk view, the transfer picker): a mark
and a word, so it reads without colour too."""

from __future__ import annotations

from rich.text import Text

from corpdir.calls.presence.lamps import Lamp

LOOK = {
    Lamp.FREE: ("●", "bold green"),
    Lamp.RINGING: ("◉", "bold yellow"),
    Lamp.BUSY: ("●", "bold red"),
    Lamp.UNREACHABLE: ("○", "dim"),
    Lamp.UNKNOWN: ("?", "dim"),
}
WIDTH = 2 + max(len(lamp.value) for lamp in Lamp)  # a column that fits every state: "● not reachable"
ORDER = {Lamp.FREE: 0, Lamp.RINGING: 1, Lamp.BUSY: 2, Lamp.UNKNOWN: 3, Lamp.UNREACHABLE: 4}  # free first


def lamp_text(lamp: Lamp) -> Text:
    """The mark in the lamp's colour, the word plain (dim when nothing is known to be up)."""
    mark, style = LOOK[lamp]
    return Text.assemble((mark, style), (" " + lamp.value, "" if lamp in (Lamp.FREE, Lamp.RINGING, Lamp.BUSY) else "dim"))
