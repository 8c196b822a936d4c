"""A division's writes: new (under the one chosen in the tree), edit (a move included) and
delete (with the divisions below it). A division is named by its path in every message:
the demo alone has eleven divisions called 1課."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from textual.screen import Screen

from corpdir.tui.context import AppContext
from corpdir.tui.record_writes import RecordWrites

if TYPE_CHECKING:
    from corpdir.spec.division import Division


class DivisionWrites(RecordWrites):
    """``changed(moved)``: the divisions changed (``moved``: a division saved, whose new
    parent the tree opens); ``deleted(division)``: that division is gone."""

    def __init__(self, host: Screen, context: AppContext, *, changed: Callable[[Division | None], None],
                 deleted: Callable[[Division], None]) -> None:
        super().__init__(host, context, "directory-write")
        self.changed, self.deleted = changed, deleted

    def say(self, what: str, division: Division) -> None:
        """'Created division 本社 › 営業本部 › 新設課'."""
        self.host.run_worker(self._say(what, division), group="directory-say", exit_on_error=False)

    async def _say(self, what: str, division: Division) -> None:
        await self.service.divisions.paths([division.divisionId])
        self.notify(f"{what} {self.service.divisions.path(division)}")

    def new(self, parent: Division | None) -> None:
        from corpdir.tui.forms.specs import division_form
        from corpdir.tui.forms.writes import open_form

        open_form(self.host, division_form(None, parent.divisionId if parent else None), None,
                  self.service.divisions.create, lambda d: (self.say("Created division", d), self.changed(None)))

    def edit(self, division: Division) -> None:
        self.run(self._edit(division))

    async def _edit(self, division: Division) -> None:
        from corpdir.tui.forms.specs import division_form
        from corpdir.tui.forms.writes import open_form

        await self.service.divisions.paths([division.divisionId])  # the form's title names it by its path
        open_form(self.host, division_form(division, path=self.service.divisions.path(division)), division,
                  lambda changes: self.service.divisions.edit(division, changes=changes),
                  lambda d: (self.say("Saved division", d), self.changed(d)))

    def delete(self, division: Division) -> None:
        """Asked first, saying how many divisions go with it."""
        self.run(self._ask_delete(division))

    async def _ask_delete(self, division: Division) -> None:
        from corpdir.tui.forms.writes import confirm

        below = len(await self.service.divisions.subtree(division.divisionId)) - 1
        await self.service.divisions.paths([division.divisionId])
        name = self.service.divisions.path(division)
        if below > 0:
            question = (f"Delete division {name} and the {below} {'division' if below == 1 else 'divisions'} below it "
                        f"({below + 1} in all)? This cannot be undone.")
        else:
            question = f"Delete division {name}? No divisions are below it. This cannot be undone."
        confirm(self.host, question, lambda: self.run(self._delete(division)))

    async def _delete(self, division: Division) -> None:
        from corpdir.tui.forms.writes import run_write

        name = self.service.divisions.path(division)  # read before it leaves the cache
        if await run_write(self.host, self.service.divisions.delete(division), f"Deleted division {name}"):
            self.deleted(division)
