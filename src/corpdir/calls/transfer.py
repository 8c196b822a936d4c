"""Putting a call through: blind (the phone system hands the caller to the target at
once) or announced (the caller is held, the target is called, the desk speaks to them,
then completes, or returns to the caller when the target does not answer or declines).

What a backend can do is what its feed implements (docs/calls.md has the table):
baresip both (``transfer`` is a SIP REFER; announced is hold + dial + transfer, as
baresip 1.0 has no REFER with Replaces), Asterisk both (``BlindTransfer``; ``Atxfer``,
completed by the desk hanging up), a desk phone's action URI neither. The card offers
only what :func:`abilities` names.

While the desk speaks to the target, the feed tells when the target has gone without the
call being completed (:meth:`AnnouncedTransferring.target_gone`: declined, not answered
before the phone system gave up, hung up): the desk is then back with the caller, and
completing would only lose them."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

BLIND, ANNOUNCED = "blind", "announced"


@runtime_checkable
class BlindTransferring(Protocol):
    async def transfer(self, call_id: str, number: str) -> None: ...


@runtime_checkable
class AnnouncedTransferring(Protocol):
    async def consult(self, call_id: str, number: str) -> None:
        """The caller held, the target dialled on the desk's phone."""

    async def complete(self, call_id: str, number: str) -> None:
        """The desk has spoken to the target: the caller goes to them."""

    async def return_to_caller(self, call_id: str) -> None:
        """The target did not answer or declined: the consultation ends, the caller is back."""

    async def target_gone(self, call_id: str) -> str:
        """Returns once the call to the target has ended on the target's side, with the
        phone system's reason ("603 Decline", "Call Rejected")."""


def abilities(feed: Any, answered: bool = True) -> frozenset[str]:
    """The kinds of transfer a feed's call can have, answered or still ringing (a feed
    whose ``announces_ringing`` is False announces answered calls only)."""
    kinds = set()
    if isinstance(feed, BlindTransferring):
        kinds.add(BLIND)
    if isinstance(feed, AnnouncedTransferring) and (answered or getattr(feed, "announces_ringing", True)):
        kinds.add(ANNOUNCED)
    return frozenset(kinds)
