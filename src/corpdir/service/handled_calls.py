"""Missed calls the desk marked handled by hand (returned from another phone, or nothing
to return), so they leave "call back". Kept in corpdir's local state per profile (service
and key): the spec's call record has no field for it (H3 edits only fromNum, answered,
duration, calledAt, voicemail and note), and the note is the caller's message, not ours
to overwrite."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from corpdir.state import State

HANDLED_KEPT = 500  # far more than the missed calls of RETURN_WITHIN_DAYS at a busy desk


class HandledCalls:
    def __init__(self, state: State, profile: str) -> None:
        self.state = state
        self.key = f"handled_calls:{profile}"

    def ids(self) -> frozenset[int]:
        """The incomingCallHistoryIds marked handled."""
        return frozenset(i for i in self.state.get(self.key) or [] if isinstance(i, int))

    def toggle(self, call_id: int) -> bool:
        """Mark or unmark; True when the call is marked handled now."""
        kept = [i for i in self.state.get(self.key) or [] if isinstance(i, int)]
        if call_id in kept:
            self.state.set(self.key, [i for i in kept if i != call_id])
            return False
        self.state.set(self.key, [*kept, call_id][-HANDLED_KEPT:])
        return True
