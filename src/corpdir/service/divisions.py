"""The divisions (D1-D5): the tree read from the cache at once and refreshed from the API,
each division named by its path, and the writes that change the tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from corpdir.client.errors import ApiError
from corpdir.division_path import division_path

if TYPE_CHECKING:
    from corpdir.service.backend import Backend, Fields
    from corpdir.spec.division import Division, DivisionCreate, DivisionEdit
    from corpdir.spec.user import DivisionRef

CHILD_IDS_PER_REQUEST = 50  # D1's divisionIds filter takes at most this many


class Divisions:
    """``service.divisions``: the division tree and its paths."""

    def __init__(self, backend: Backend) -> None:
        self._b = backend

    async def children(self, parent_id: int | None) -> list[Division]:
        """The cached children (plain records while the settings are the first screen's:
        :attr:`corpdir.service.backend.Backend.provisional`)."""
        return await self._b.cache.run(lambda: self._b.store.child_divisions(parent_id, plain=self._b.provisional))

    @property
    def provisional(self) -> bool:
        """What the tree holds may be plain records (:mod:`corpdir.cache.plain`) until this is False."""
        return self._b.provisional

    async def refresh_children(self, parent: Division | None) -> list[Division]:
        """D1 firstLayer for the top, else the parent's childDivisionIds (50 per request)."""
        b = self._b
        if parent is None:
            first_layer = b.variant().offers("firstLayer")
            found = await b.take("D1", {"firstLayer": True} if first_layer else {})
            if not first_layer:
                found = [d for d in found if not d.parentDivisionId]
        else:
            ids = list(parent.childDivisionIds or [])
            found = []
            for start in range(0, len(ids), CHILD_IDS_PER_REQUEST):
                found += await b.take("D1", {"divisionIds": ids[start:start + CHILD_IDS_PER_REQUEST]})
            if not ids and not b.variant().offers("childDivisionIds"):  # the parent cannot name its children
                found = [d for d in await b.take("D1", {}) if d.parentDivisionId == parent.divisionId]
        await b.cache.run(b.store.put_divisions, found)
        return await self.children(None if parent is None else parent.divisionId)

    async def paths(self, ids: Iterable[int]) -> dict[int, list[str]]:
        """Names from the top down of each cached division in ``ids``, for
        :func:`corpdir.division_path.division_path` (a division not cached is left out)."""
        paths = await self._b.cache.run(self._b.store.division_paths, list(ids))
        self._b.paths.update(paths)
        return paths

    def path(self, ref: DivisionRef, width: int | None = None, marker: str = "") -> str:
        """A user's division by its path ('本社 › 技術本部 › 品質保証部 › 1課'), within
        ``width`` cells when given, ``marker`` after it where it fits (see
        :func:`corpdir.division_path.division_path`): the path as read with the user's
        record (every read of users here reads their divisions' paths too), else the
        division's own name. For a list's cells, which are painted without a trip to the cache."""
        return division_path(self._b.paths.get(ref.divisionId) or [ref.divisionName or f"#{ref.divisionId}"], width,
                             marker)

    async def all(self) -> list[tuple[Division, list[str]]]:
        """Every cached division with its path (names top first), in the division tree's
        order (each under its parent; siblings by sort score, then how their names are read):
        what a picker offers."""
        store = self._b.store

        def read() -> list[tuple[Division, list[str]]]:
            rows = store.all_divisions()
            read_as = {d.divisionId: key for d, key in rows}
            divisions = [d for d, _ in rows]
            by_id = {d.divisionId: d for d in divisions}
            paths = store.division_paths(list(by_id))
            self._b.paths.update(paths)

            def place(d: Division | None) -> list[tuple[int, str, int]]:
                steps, seen = [], set()
                while d is not None and d.divisionId not in seen:
                    seen.add(d.divisionId)
                    steps.insert(0, (-(d.sortScore or 0), read_as.get(d.divisionId, ""), d.divisionId))
                    d = by_id.get(d.parentDivisionId) if d.parentDivisionId else None
                return steps

            return sorted(((d, paths.get(d.divisionId) or [d.divisionName or ""]) for d in divisions),
                          key=lambda item: place(item[0]))

        return await self._b.cache.run(read)

    async def member_count(self, division_id: int, include_sub: bool = False) -> int:
        return await self._b.cache.run(self._b.store.count_users, division_id, include_sub=include_sub)

    async def subtree(self, division_id: int) -> list[int]:
        """The division and every division below it, as far as the cache knows."""
        return await self._b.cache.run(self._b.store.subtree_ids, division_id)

    # -- writes ------------------------------------------------------------------------------
    async def _reread(self, division_id: int | None) -> None:
        """A parent's childDivisionIds change with its children: read it again (D3)."""
        if division_id:
            try:
                await self._b.ask(self._b.client.get_division(division_id), self._keep)
            except ApiError:
                return

    def _keep(self, division: Division) -> None:
        self._b.store.put_divisions([division])

    async def create(self, fields: DivisionCreate | Fields) -> Division:
        division = await self._b.ask(self._b.client.create_division(fields), self._keep)
        await self._reread(division.parentDivisionId)
        return division

    async def edit(self, original: Division, edited: Division | Fields | None = None, *,
                   changes: DivisionEdit | Fields | None = None) -> Division:
        b = self._b
        division = await b.ask(b.edit(b.client.edit_division, original.divisionId, original, edited, changes), self._keep)
        if division.parentDivisionId != original.parentDivisionId:
            await self._reread(original.parentDivisionId)
            await self._reread(division.parentDivisionId)
        return division

    async def delete(self, division: Division) -> int:
        """D5 deletes the division and its descendants; returns how many left the cache."""
        ids = await self.subtree(division.divisionId)
        await self._b.ask(self._b.client.delete_division(division.divisionId), lambda _: self._b.store.delete_divisions(ids))
        await self._reread(division.parentDivisionId)
        return len(ids)
