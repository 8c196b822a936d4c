"""Images: users' face photos (FULL and THUMBNAIL) and contacts' business-card images."""

from __future__ import annotations

from corpdir.server.errors import not_found
from corpdir.server.images import thumbnail
from corpdir.server.storage.db import Database


class MediaStore:
    db: Database

    def put_photo(self, user_id: int, full: bytes, thumbnail: bytes) -> None:
        with self.db.write() as conn:
            if not conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone():
                raise not_found(f"user {user_id}")
            conn.execute("INSERT OR REPLACE INTO photos (user_id, full, thumbnail) VALUES (?, ?, ?)", (user_id, full, thumbnail))

    def get_photo(self, user_id: int, size: str) -> bytes | None:
        """The photo in ``size``; a bulk-loaded photo gets its thumbnail made (and kept) here."""
        with self.db.read() as conn:
            row = conn.execute("SELECT full, thumbnail FROM photos WHERE user_id = ?", (user_id,)).fetchone()
        if row is None:
            return None
        if size != "THUMBNAIL":
            return bytes(row[0])
        if row[1] is not None:
            return bytes(row[1])
        small = thumbnail(bytes(row[0]))
        with self.db.write() as conn:
            conn.execute("UPDATE photos SET thumbnail = ? WHERE user_id = ?", (small, user_id))
        return small

    def delete_photo(self, user_id: int) -> bool:
        with self.db.write() as conn:
            return conn.execute("DELETE FROM photos WHERE user_id = ?", (user_id,)).rowcount > 0

    def put_card(self, contact_id: int, image: bytes) -> None:
        with self.db.write() as conn:
            conn.execute("INSERT OR REPLACE INTO cards (contact_id, image) VALUES (?, ?)", (contact_id, image))

    def get_card(self, contact_id: int) -> bytes | None:
        with self.db.read() as conn:
            row = conn.execute("SELECT image FROM cards WHERE contact_id = ?", (contact_id,)).fetchone()
        return bytes(row[0]) if row else None

    def delete_card(self, contact_id: int) -> bool:
        with self.db.write() as conn:
            return conn.execute("DELETE FROM cards WHERE contact_id = ?", (contact_id,)).rowcount > 0
