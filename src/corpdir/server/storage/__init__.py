"""SQLite storage of the reference server: one ``Storage`` object, one module per resource.

``Storage`` combines the per-resource stores (each a mixin over the shared ``Database``),
so handlers call ``storage.create_user(...)`` without knowing which table holds what.
"""

from __future__ import annotations

import threading
from typing import Callable

from corpdir.server.storage.calls import INCOMING, OUTGOING, CallKind, CallStore
from corpdir.server.storage.contacts import ContactStore, stored_fields
from corpdir.server.storage.db import Database, dumps, iso_ms, loads
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
        self._finish_migration()

    def _finish_migration(self) -> None:
        """A migration that changed how search text is made leaves ``reindex_search``:
        every user's and contact's text is rebuilt from the stored records, once."""
        if self.get_meta("reindex_search") is None:
            return
        with self.db.write() as conn:
            # contacts' JSON keeps no nulls since schema 2 (X1 splices it into answers)
            conn.executemany("UPDATE contacts SET data = ? WHERE id = ?", [
                (dumps(stored_fields(loads(text))), cid)
                for cid, text in conn.execute("SELECT id, data FROM contacts").fetchall()
            ])
            self.reindex_users(conn, [r[0] for r in conn.execute("SELECT id FROM users")])
            self.reindex_contacts(conn, [r[0] for r in conn.execute("SELECT id FROM contacts")])
            conn.execute("DELETE FROM meta WHERE key = 'reindex_search'")

    def now_iso(self) -> str:
        """The current time with milliseconds, strictly increasing within this process, so
        ordering contacts by (updatedAt, contactId) is stable and updatedAt tells edits apart."""
        with self._stamp_lock:
            ms = max(int(self.clock() * 1000), self._last_ms + 1)
            self._last_ms = ms
        return iso_ms(ms / 1000)

    def close(self) -> None:
        self.db.close()
