"""Reads of the directory's records from the cache: people, contacts, divisions and
profiles, one at a time, by ids, or as windows of a list in the order a screen shows.

A mixin of :class:`~corpdir.cache.store.CacheStore` (see :mod:`.store_base`): these only
read (the UI's lists and detail views, the export), while the store's own module keeps
the synced writes and the bookkeeping that must agree with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Literal, Sequence

from corpdir.cache import reading
from corpdir.cache.division_paths import path_names
from corpdir.cache.fields import CODES
from corpdir.cache.plain import Plain
from corpdir.cache.store_base import Cached, M, StoreBase

if TYPE_CHECKING:  # imported where first used: pydantic comes after the first screen (docs/performance.md)
    from corpdir.spec.contact import Contact
    from corpdir.spec.division import Division
    from corpdir.spec.profile import Profile
    from corpdir.spec.user import User

UserOrder = Literal["fullname", "sortScore", "employeeNum", "extensionNum"]
_USER_ORDER_COLUMNS = {"fullname": "reading", "sortScore": "sort_score", "employeeNum": "employee_num"}  # "by name": by reading
# By extension: the phone index keeps an extension's digits (its match key); shorter first,
# so 201 comes before 1001; people without one come last. The extensions are materialized
# first: joined to users directly, SQLite scanned the index once per person (43 s for a
# window of 10k people; 40-120 ms this way, beside 10-60 ms by employee number, under load).
_BY_EXTENSION = (f"WITH x AS MATERIALIZED (SELECT id, key FROM user_phones WHERE field = {CODES['extensionNum']})",
                 "LEFT JOIN x ON x.id = u.id", "x.key IS NULL {d}, length(x.key) {d}, x.key {d}")


class DirectoryReads(StoreBase):
    """Records as models with the time they were fetched, and windows of the lists."""

    def _record(self, model: type[M], sql: str, params: Sequence[Any]) -> Cached[M] | None:
        row = self._one(sql, params)
        return Cached(model.model_validate_json(self.codec.unpack(row[0])), row[1]) if row else None

    def user(self, user_id: int) -> Cached[User] | None:
        from corpdir.spec.user import User
        return self._record(User, "SELECT data, fetched_at FROM users WHERE id = ?", (user_id,))

    def contact(self, contact_id: int) -> Cached[Contact] | None:
        from corpdir.spec.contact import Contact
        return self._record(Contact, "SELECT data, fetched_at FROM contacts WHERE id = ?", (contact_id,))

    def division(self, division_id: int) -> Cached[Division] | None:
        from corpdir.spec.division import Division
        return self._record(Division, "SELECT data, fetched_at FROM divisions WHERE id = ?", (division_id,))

    def profile(self, user_id: int) -> Cached[Profile] | None:
        from corpdir.spec.profile import Profile
        return self._record(Profile, "SELECT data, fetched_at FROM profiles WHERE user_id = ?", (user_id,))

    def users(self, ids: Sequence[int]) -> list[User]:
        """Users by id, in the order of ``ids`` (missing ones skipped)."""
        from corpdir.spec.user import User
        return self._by_ids(User, "users", ids)

    def contacts(self, ids: Sequence[int]) -> list[Contact]:
        """Contacts by id, as :meth:`users`."""
        from corpdir.spec.contact import Contact
        return self._by_ids(Contact, "contacts", ids)

    def _by_ids(self, model: type[M], table: str, ids: Sequence[int]) -> list[M]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        found = {r[0]: model.model_validate_json(self.codec.unpack(r[1]))
                 for r in self._rows(f"SELECT id, data FROM {table} WHERE id IN ({marks})", ids)}
        return [found[i] for i in ids if i in found]

    def child_divisions(self, parent_id: int | None, *, plain: bool = False) -> list[Division]:
        """Divisions directly under ``parent_id`` (None: the top layer), by sortScore, then
        by how their names are read (gojūon order); ``plain``: as :class:`~corpdir.cache.plain.Plain`
        records (the first screen's, painted before the models are imported)."""
        where = "parent_id IS NULL" if parent_id is None else "parent_id = ?"
        params = () if parent_id is None else (parent_id,)
        rows = self._rows(f"SELECT data FROM divisions WHERE {where} ORDER BY sort_score DESC, reading, id", params)
        if plain:
            return [Plain.from_json("division.Division", r[0]) for r in rows]  # type: ignore[misc]
        from corpdir.spec.division import Division
        return [Division.model_validate_json(r[0]) for r in rows]

    def division_paths(self, ids: Iterable[int]) -> dict[int, list[str]]:
        """Each cached division's names from the top down (see :mod:`corpdir.division_path`)."""
        with self._lock:
            return path_names(self._conn, ids)

    def all_divisions(self) -> list[tuple[Division, str]]:
        """Every cached division with its reading's sort key (a picker offers them all)."""
        from corpdir.spec.division import Division
        return [(Division.model_validate_json(r[0]), r[1] or "") for r in self._rows("SELECT data, reading FROM divisions")]

    def subtree_ids(self, division_id: int) -> list[int]:
        rows = self._rows(
            "WITH RECURSIVE sub(id) AS (SELECT ? UNION SELECT d.id FROM divisions d JOIN sub ON d.parent_id = sub.id)"
            " SELECT id FROM sub", (division_id,))
        return [r[0] for r in rows]

    def _member_filter(self, division_id: int | None, include_sub: bool) -> tuple[str, list[Any]]:
        if division_id is None:
            return "", []
        ids = self.subtree_ids(division_id) if include_sub else [division_id]
        marks = ",".join("?" * len(ids))
        return f"WHERE u.id IN (SELECT user_id FROM user_divisions WHERE division_id IN ({marks}))", list(ids)

    def count_users(self, division_id: int | None = None, *, include_sub: bool = False) -> int:
        where, params = self._member_filter(division_id, include_sub)
        return self._one(f"SELECT COUNT(*) FROM users u {where}", params)[0]

    def list_users(self, division_id: int | None = None, *, include_sub: bool = False, order_by: UserOrder = "fullname",
                   descending: bool = False, offset: int = 0, limit: int = 100, plain: bool = False) -> list[User]:
        """A window of users (for virtual lists: rows are fetched by index, never all at once);
        ``plain``: as :class:`~corpdir.cache.plain.Plain` records (see :meth:`child_divisions`)."""
        where, params = self._member_filter(division_id, include_sub)
        direction = "DESC" if descending else "ASC"
        with_, join, order = _BY_EXTENSION if order_by == "extensionNum" else \
            ("", "", f"{_USER_ORDER_COLUMNS[order_by]} {{d}}")
        rows = self._rows(
            f"{with_} SELECT u.data FROM users u {join} {where} ORDER BY {order.format(d=direction)}, u.id {direction}"
            " LIMIT ? OFFSET ?", [*params, limit, offset])
        if plain:
            return [Plain.from_json("user.User", self.codec.unpack(r[0])) for r in rows]  # type: ignore[misc]
        from corpdir.spec.user import User
        return [User.model_validate_json(self.codec.unpack(r[0])) for r in rows]

    def users_row_offset(self, row: str, division_id: int | None = None, *, include_sub: bool = False) -> int:
        """Where the index row ``row`` ('か', or a letter 'K') starts in the users "by name"
        (the count of those that sort before it): a jump-to-row key scrolls there."""
        where, params = self._member_filter(division_id, include_sub)
        clause = f"{where} AND" if where else "WHERE"
        return self._one(f"SELECT COUNT(*) FROM users u {clause} u.reading < ?", [*params, reading.row_start(row)])[0]

    def contacts_row_offset(self, row: str, directory: str | None = None, folder_num: int | None = None) -> int:
        """As :meth:`users_row_offset`, for contacts "by name"."""
        where, params = self._folder_filter(directory, folder_num)
        clause = f"{where} AND" if where else "WHERE"
        return self._one(f"SELECT COUNT(*) FROM contacts {clause} reading < ?", [*params, reading.row_start(row)])[0]

    def user_ids(self, division_id: int | None = None, *, include_sub: bool = False) -> list[int]:
        """Every user's id (of a division) in name order. A whole-list reader (an export)
        sorts the ids once and reads the records a batch at a time with :meth:`users`,
        rather than sorting the table again for each window of :meth:`list_users`."""
        where, params = self._member_filter(division_id, include_sub)
        column = _USER_ORDER_COLUMNS["fullname"]  # the same order as list_users's "by name"
        return [r[0] for r in self._rows(f"SELECT id FROM users u {where} ORDER BY {column}, id", params)]

    def contact_ids(self, directory: str | None = None, folder_num: int | None = None) -> list[int]:
        """Every contact's id (of a directory or folder) in name order; see :meth:`user_ids`."""
        where, params = self._folder_filter(directory, folder_num)
        return [r[0] for r in self._rows(f"SELECT id FROM contacts {where} ORDER BY reading, id", params)]

    def count_contacts(self, directory: str | None = None, folder_num: int | None = None) -> int:
        where, params = self._folder_filter(directory, folder_num)
        return self._one(f"SELECT COUNT(*) FROM contacts {where}", params)[0]

    def list_contacts(self, directory: str | None = None, folder_num: int | None = None, *, offset: int = 0, limit: int = 100) -> list[Contact]:
        from corpdir.spec.contact import Contact
        where, params = self._folder_filter(directory, folder_num)
        rows = self._rows(f"SELECT data FROM contacts {where} ORDER BY reading, id LIMIT ? OFFSET ?", [*params, limit, offset])
        return [Contact.model_validate_json(self.codec.unpack(r[0])) for r in rows]

    @staticmethod
    def _folder_filter(directory: str | None, folder_num: int | None) -> tuple[str, list[Any]]:
        clauses, params = [], []
        if directory is not None:
            clauses.append("directory = ?")
            params.append(directory)
        if folder_num is not None:
            clauses.append("folder_num = ?")
            params.append(folder_num)
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", params
