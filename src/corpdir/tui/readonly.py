"""Kiosk (read-only) mode: which actions change something, and what a kiosk never offers.

An action that writes (creates, edits or deletes in the directory, or writes or opens a
file) is named in its screen's ``WRITES`` set or marked with :func:`writes`. In read-only
mode the app disables such a binding (so the footer and the command palette do not offer
it) and refuses to run the action however it is invoked (key, palette, click); the client
refuses the request anyway (:class:`corpdir.service.errors.ReadOnly`).
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_MARK = "__corpdir_writes__"

# Actions a kiosk never runs, on any screen: suspending drops to the shell that started the
# app; a screenshot or an export writes a file (a path outside the app).
KIOSK_REFUSED = frozenset({"suspend_process", "screenshot", "export"})


def writes(method: F) -> F:
    """Mark an ``action_*`` method as one that changes the directory or touches files."""
    setattr(method, _MARK, True)
    return method


def action_writes(namespace: object, action_name: str) -> bool:
    """True when ``action_name`` on ``namespace`` writes: in the namespace's ``WRITES``,
    marked by :func:`writes`, or one of :data:`KIOSK_REFUSED`."""
    if action_name in KIOSK_REFUSED or action_name in getattr(namespace, "WRITES", ()):
        return True
    for prefix in ("_action_", "action_"):
        method = getattr(namespace, prefix + action_name, None)
        if method is not None:
            return bool(getattr(method, _MARK, False))
    return False
