"""Numbers on the command line, checked when it is read: a bad one is argparse's usage
error (exit 2, the flag named), never a traceback from deep inside the command."""

from __future__ import annotations

import argparse


def whole_number(text: str, low: int, high: int | None = None) -> int:
    """``text`` as an int from ``low`` to ``high`` (no upper bound when None)."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"of {low} or more"
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {bounds}")
    return value


def port(text: str) -> int:
    """A TCP port (0: any free one): 99999 reached ``bind()`` and an OverflowError."""
    return whole_number(text, 0, 65535)


def at_least_one(text: str) -> int:
    """A count of 1 or more (a negative ``--limit`` cut records off the end instead)."""
    return whole_number(text, 1)


def record_id(text: str) -> int:
    """A division ID or folder number as the spec stores them (a signed 64-bit integer):
    a longer one ended in an OverflowError from SQLite."""
    return whole_number(text, 0, 2**63 - 1)


def caller_number(text: str) -> str:
    """The caller's number for `corpdir ring`: an empty or blank one (a script's unset
    variable) popped up "Number withheld" as if the caller had hidden it; a withheld call
    is rung as the phone system names it (``anonymous``)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: give the caller's number as the phone system sends it "
                                         "('anonymous' for a withheld caller)")
    return text


def filter_text(text: str) -> str:
    """A filter's value: an empty one (a script's unset variable, ``--login-id "$ID"``)
    filtered nothing, and the export held everyone instead of the one record asked for."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: an empty filter would select every record (leave the flag out "
                                         "for all)")
    return text


def filter_words(text: str) -> list[str]:
    """``--search``'s words (:func:`filter_text`'s rule: blank is refused, not "everyone")."""
    return filter_text(text).split()
