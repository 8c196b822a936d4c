"""The record a screen has chosen (a person, a contact, a call's row or a number looked
up) and what the desk does with it: the number F5 and ``b`` call and ``c`` copies, the
e-mail ``e`` copies.

One rule for the lists and the full-screen detail (80x24), so the same keys do the same on
both: a receptionist who opened someone on a narrow terminal calls or copies from there.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from textual.dom import DOMNode

from corpdir.spec.phone_fields import first_phone


@runtime_checkable
class OneNumber(Protocol):
    """A row about one number: a call's, or a number looked up."""

    @property
    def number(self) -> str: ...


def number_of(chosen: Any) -> str:
    """A call's or a looked-up number; a person's or contact's first number ('' for nothing)."""
    if chosen is None:
        return ""
    return chosen.number if isinstance(chosen, OneNumber) else first_phone(chosen)


def email_of(chosen: Any) -> str:
    """A person's or contact's first e-mail address ('' for a call or nothing chosen)."""
    return getattr(chosen, "email1", None) or ""


def copy_value(node: DOMNode, value: str, what: str) -> None:
    """To the user's clipboard (OSC 52: over SSH too), and said; a word when there is none."""
    if not value:
        node.notify(f"No {what} to copy", severity="warning", timeout=2)
        return
    node.app.copy_to_clipboard(value)
    node.notify(f"Copied {what}: {value}", timeout=2)
