"""What a failed write means, in a receptionist's words (no Textual here: the TUI and
the CLI both use it)."""

from __future__ import annotations

from datetime import datetime, timedelta

from corpdir.client.errors import ApiError, CorpdirError, PermissionDenied, RateLimited
from corpdir.spec import OPERATIONS


def missing_right(exc: ApiError) -> str | None:
    """The permission range the operation needs (spec section 5), e.g. 'user management'."""
    op = OPERATIONS.get(exc.operation or "")
    return op.permission.value if op is not None else None


def explain(exc: CorpdirError) -> str:
    """One readable paragraph for a failed write; a 403 names the right that is missing."""
    if isinstance(exc, PermissionDenied) and not exc.local:
        op = OPERATIONS.get(exc.operation or "")
        what = op.purpose.lower() if op else "this"
        right = missing_right(exc)
        needs = f" It needs {right}." if right and right != "none stated" else ""
        return f"{exc.summary}: you may not {what}.{needs}"  # its purpose, not its code (U11, L1 ...)
    return str(exc)


def retry_after_text(exc: RateLimited, now: datetime | None = None) -> str:
    """L1 inside its 5-minute window (429 with Retry-After): when the next request may be sent."""
    seconds = exc.retry_after or 0
    when = (now or datetime.now().astimezone()) + timedelta(seconds=seconds)
    minutes, secs = divmod(int(round(seconds)), 60)
    wait = f"{minutes} min {secs} s" if minutes else f"{secs} s"
    return (f"Spots were registered less than 5 minutes ago: the service accepts one spot list per 5 minutes. "
            f"Nothing was registered. Try again in {wait} (at {when:%H:%M:%S}).")
