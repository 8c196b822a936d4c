"""What a failed write means, in a receptionist's words (no Textual here: the TUI and
the CLI both use it)."""

from __future__ import annotations

from datetime import datetime, timedelta

from corpdir.client.errors import AccessDenied, ApiError, CorpdirError, PermissionDenied, RateLimited
from corpdir.spec import OPERATIONS


def missing_right(exc: ApiError) -> str | None:
    """The permission range the operation needs (spec section 5), e.g. 'user management'."""
    op = OPERATIONS.get(exc.operation or "")
    return op.permission.value if op is not None else None


# What a refused operation would have done, as "this key may not ..." ends: the spec's
# purposes ("Edit contact", "Delete user (photo too)") read as labels, not as a sentence.
REFUSED = {
    "U2": "add people", "U4": "edit people", "U5": "delete people",
    "U7": "replace face photos", "U8": "delete face photos", "U10": "edit this person's profile",
    "U11": "edit destinations in bulk", "D2": "add divisions", "D4": "edit divisions", "D5": "delete divisions",
    "X2": "add contacts to this folder", "X3": "edit contacts in this folder", "X4": "delete contacts in this folder",
    "X5": "add contacts to this folder", "X7": "replace card images in this folder",
    "X8": "delete card images in this folder", "P2": "add personal folders", "P3": "edit this personal folder",
    "H2": "add call records", "H3": "edit this call record", "H5": "add call records", "H6": "edit this call record",
    "L1": "register spot information",
}


def explain(exc: CorpdirError) -> str:
    """One readable paragraph for a failed write; a 403 names the right that is missing."""
    if isinstance(exc, PermissionDenied) and not exc.local and not isinstance(exc, AccessDenied):  # a network's, not a key's
        op = OPERATIONS.get(exc.operation or "")
        what = REFUSED.get(op.code, op.purpose.lower()) if op else "do this"
        right = missing_right(exc)
        needs = f" It needs {right}." if right and right != "none stated" else ""
        return f"{exc.summary}: this key may not {what}.{needs}"  # its purpose, not its code (U11, L1 ...)
    return str(exc)


def retry_after_text(exc: RateLimited, now: datetime | None = None) -> str:
    """L1 inside its 5-minute window (429 with Retry-After): when the next request may be sent."""
    seconds = exc.retry_after or 0
    when = (now or datetime.now().astimezone()) + timedelta(seconds=seconds)
    minutes, secs = divmod(int(round(seconds)), 60)
    wait = f"{minutes} min {secs} s" if minutes else f"{secs} s"
    return (f"Spots were registered less than 5 minutes ago: the service accepts one spot list per 5 minutes. "
            f"Nothing was registered. Try again in {wait} (at {when:%H:%M:%S}).")
