"""One line at the bottom: is the service reachable, how fresh is the cache, how many
rate-limit tokens are left, and what a sync is doing. It samples the service each second
(in a worker, since freshness is read from the cache)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.widgets import Static

from corpdir.text import printable
from corpdir.tui.widgets import tcss_beside

if TYPE_CHECKING:
    from corpdir.tui.context import AppContext


def describe_age(seconds: float | None) -> str:
    if seconds is None:
        return "not synced"
    if seconds < 60:
        return "synced just now"
    if seconds < 3600:
        return f"synced {int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"synced {int(seconds // 3600)} h ago"
    return f"synced {int(seconds // 86400)} d ago"


def sync_activity(counts: dict[str, tuple[int, int | None]]) -> str:
    """What a sync has done so far, every resource it reported in one line: the users' pass
    and the contacts run side by side, and a line naming whichever reported last would flicker
    between them. ``counts``: resource -> (done, total or None), in the order first reported."""
    parts = [f"{resource} {done:,}" + (f"/{total:,}" if total else "") for resource, (done, total) in counts.items()]
    return "syncing " + " · ".join(parts)


class StatusBar(Static):
    DEFAULT_CSS = tcss_beside(__file__)

    def __init__(self, context: AppContext, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.context = context
        self.service = context.service
        self._age: float | None = None

    def on_mount(self) -> None:
        self.sample()
        self.set_interval(1.0, self.sample)

    @work(group="status", exclusive=True, exit_on_error=False)
    async def sample(self) -> None:
        self._age = await self.service.sync.age("users")
        self.refresh_text()

    def refresh_text(self) -> None:
        online = self.service.online
        text = Text()
        if online is False:
            text.append("● offline", style="bold red")
            text.append(" (showing the cache)", style="dim")
        elif online:
            text.append("● online", style="bold green")
        else:
            text.append("○ connecting", style="yellow")
        # a feed's error can quote what a PBX sent: shown literally, one line
        phone_status = printable(self.context.desk_phone.status_text())
        phone_down = "reconnecting" in phone_status
        core = Text("  ·  " + describe_age(self._age))
        bucket = self.service.rate_limit
        if bucket is not None and bucket.capacity:
            core.append(f"  ·  tokens {int(bucket.tokens)}/{int(bucket.capacity)}")
        if self.service.is_demo:
            core.append("  ·  DEMO", style="bold magenta")
        if phone_down:  # first, where a narrow terminal does not cut it off; cut itself to leave room for the rest
            down = Text("  ·  " + phone_status, style="bold yellow")
            if width := self.content_size.width:  # 0: not laid out yet
                down.truncate(max(width - text.cell_len - core.cell_len, 8), overflow="ellipsis")
            text.append_text(down)
        text.append_text(core)
        if phone_status and not phone_down:
            text.append("  ·  " + phone_status)
        if activity := self.context.sync.activity:
            text.append("  ·  " + activity, style="italic")
        self.update(text, layout=False)  # one line, sampled every second: never a re-layout
