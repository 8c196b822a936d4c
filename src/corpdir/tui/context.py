"""What every screen of the app is given: the service, the remembered state, the settings,
the desk phone, whether the terminal is read-only, and how the sync stands.

The app builds one :class:`AppContext` before its first screen and passes it to each
screen it makes; a screen passes it on to the widgets and write helpers that need it.
Nothing below the app looks app state up by name (``getattr(self.app, ...)``): what a
screen may read is the fields here, typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from corpdir.service.directory import DirectoryService
    from corpdir.state import State
    from corpdir.tui.desk_phone import DeskPhone


@dataclass
class SyncProgress:
    """How the sync stands, as the lists and the status bar say it. The app changes it;
    screens read it."""

    running: int = 0  # a new sync cancels the one under way: both count until they end
    pending: bool = False  # the start-up sync is still being considered
    activity: str = ""  # what a sync under way has done ("syncing users 1,200/10,000")
    done: int = 0  # syncs finished: a screen that comes back after one reads the cache again

    @property
    def syncing(self) -> bool:
        """A sync is under way, or the start-up one is still being considered: an empty list
        then says "syncing", not "0 people" (a fresh cache fills when the sync is done)."""
        return bool(self.running) or self.pending


@dataclass(frozen=True)
class AppContext:
    service: DirectoryService
    state: State
    read_only: bool  # kiosk: nothing that writes is offered or run (corpdir.tui.readonly)
    desk_phone: DeskPhone
    sync: SyncProgress

    @property
    def profile(self) -> str:
        """The profile (service and key) as local state names it: its cache file's name.
        What the desk remembers (recent lookups, calls marked handled) is kept per profile."""
        return self.service.settings.profile().cache_path().stem


class _HasContext(Protocol):
    context: AppContext


def context_of(node: DOMNode) -> AppContext:
    """The context of the app ``node`` runs in, for what no screen builds and so cannot be
    handed it: a form opened from the pop-up, a card on the ring stack."""
    return cast(_HasContext, node.app).context
