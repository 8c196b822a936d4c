"""SQLite storage of the reference server: one ``Storage`` object, one module per resource.

``Storage`` combines the per-resource stores (each a mixin over the shared ``Database``),
so handlers call ``storage.create_user(...)`` without knowing which table holds what.
"""

from __future__ import annotations

import threading
from typing import Callable

from corpdir.server.storage.calls import INCOMING, OUTGOING, CallKind, CallStore
from corpdir.server.storage.contacts import ContactStore
from corpdir.server.storage.db import Database, iso_ms
from corpdir.server.storage.divisions import DivisionStore
from corpdir.server.storage.folders import FolderStore
from corpdir.server.storage.identify import IdentifyStore
from corpdir.server.storage.locations import LocationStore
from corpdir.server.storage.media import MediaStore
from corpdir.server.storage.profiles import ProfileStore
from corpdir.server.storage.tenant import TenantStore
from corpdir.server.storage.users import UserStore

__all__ = ["INCOMING", "OUTGOING", "CallKind", "Database", "Storage"]


class Storage(UserStore, DivisionStore, ContactStore, FolderStore, MediaStore, ProfileStore, CallStore,
              IdentifyStore, LocationStore, TenantStore):
    def __init__(self, path: str, *, clock: Callable[[], float], region: str = "JP") -> None:
        self.db = Database(path)
        self.clock = clock
        self.region = region
        self._stamp_lock = threading.Lock()
        self._last_ms = 0

    def now_iso(self) -> str:
        """The current time with milliseconds, strictly increasing within this process, so
        ordering contacts by (updatedAt, contactId) is stable and updatedAt tells edits apart."""
        with self._stamp_lock:
            ms = max(int(self.clock() * 1000), self._last_ms + 1)
            self._last_ms = ms
        return iso_ms(ms / 1000)

    def close(self) -> None:
        self.db.close()
