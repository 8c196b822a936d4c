"""The busy lamps inside the TUI: runs :class:`~corpdir.calls.presence.watch.Presence` on
the app's loop when ``[calls.presence]`` is set, and tells the screen on show when lamps
change (:class:`LampsChanged`). A screen that shows lamps says which extensions
(:meth:`BusyLamps.show`); the desk's favourites are watched always, before them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from textual.message import Message

from corpdir.calls.presence.lamps import Lamp

if TYPE_CHECKING:
    from corpdir.config import CallsConfig
    from corpdir.tui.app import CorpdirApp


class LampsChanged(Message):
    def __init__(self, extensions: frozenset[str]) -> None:
        super().__init__()
        self.extensions = extensions


class BusyLamps:
    def __init__(self, app: CorpdirApp, settings: CallsConfig | None) -> None:
        self.app = app
        self.presence = None
        self.favourites: tuple[str, ...] = ()
        self.shown: tuple[str, ...] = ()
        if settings is not None and settings.presence is not None:
            from corpdir.calls.presence.watch import Presence

            self.presence = Presence(settings.presence, self._changed)

    @property
    def enabled(self) -> bool:
        return self.presence is not None

    def start(self) -> None:
        if self.presence is not None:
            self.presence.start()

    async def stop(self) -> None:
        if self.presence is not None:
            await self.presence.stop()

    def lamp(self, extension: str | None) -> Lamp:
        return self.presence.lamp(extension) if self.presence is not None else Lamp.UNKNOWN

    def show(self, extensions: Iterable[str | None]) -> None:
        """The extensions the screen on show lists now (replacing the last screen's)."""
        self.shown = tuple(e for e in extensions if e)
        self._watch()

    def keep(self, favourites: Iterable[str | None]) -> None:
        """The desk's favourites' extensions: watched whatever is on screen."""
        self.favourites = tuple(e for e in favourites if e)
        self._watch()

    def _watch(self) -> None:
        if self.presence is not None:
            self.presence.watch(self.shown, self.favourites)

    def _changed(self, extensions: frozenset[str]) -> None:
        self.app.screen.post_message(LampsChanged(extensions))
