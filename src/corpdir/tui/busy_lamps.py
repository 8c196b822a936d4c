"""The busy lamps inside the TUI: runs :class:`~corpdir.calls.presence.watch.Presence` on
the app's loop when ``[calls.presence]`` is set, and tells the screen on show when lamps
change (:class:`LampsChanged`; a list's lamp column registers a listener). A screen that shows lamps says which extensions
(:meth:`BusyLamps.show`); the desk's favourites are watched always, before them, and the
person in the detail pane (:meth:`BusyLamps.pin`) next."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

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
        self.detail: str | None = None  # the person the detail pane shows
        self.listeners: list[Callable[[frozenset[str]], None]] = []  # lists' lamp columns (busy_lamp_column)
        if settings is not None and settings.presence is not None:
            from corpdir.calls.presence.watch import Presence

            self.presence = Presence(settings.presence, self._changed)

    @property
    def enabled(self) -> bool:
        return self.presence is not None

    def start(self) -> None:
        """The source running, and the favourites watched from the start (not only once
        the desk view has been opened)."""
        if self.presence is not None:
            self.presence.start()
            self.app.run_worker(self._keep_favourites(), group="busy-lamps", exit_on_error=False)

    async def _keep_favourites(self) -> None:
        from corpdir.tui.transfer_flow import desk_people

        favourites, _most = await desk_people(self.app.desk_phone)
        self.keep(user.extensionNum for user in favourites)

    async def stop(self) -> None:
        if self.presence is not None:
            await self.presence.stop()

    def lamp(self, extension: str | None) -> Lamp:
        return self.presence.lamp(extension) if self.presence is not None else Lamp.UNKNOWN

    def show(self, extensions: Iterable[str | None]) -> None:
        """The extensions the screen on show lists now (replacing the last screen's)."""
        self.shown = tuple(e for e in extensions if e)
        self._watch()

    def pin(self, extension: str | None) -> None:
        """The detail pane's person: watched too, wherever the pane was opened from."""
        if extension != self.detail:
            self.detail = extension
            self._watch()

    def keep(self, favourites: Iterable[str | None]) -> None:
        """The desk's favourites' extensions: watched whatever is on screen."""
        self.favourites = tuple(e for e in favourites if e)
        self._watch()

    def _watch(self) -> None:
        if self.presence is not None:
            self.presence.watch((self.detail, *self.shown), self.favourites)

    def _changed(self, extensions: frozenset[str]) -> None:
        self.app.screen.post_message(LampsChanged(extensions))
        for listener in self.listeners:
            listener(extensions)
