"""The people lists sort by extension (o cycles name, sort score, employee no., extension):
shorter extensions first (201 before 1001), people without one last; a filter search,
which the service answers (U1 cannot sort by extension), says it is by name."""

from __future__ import annotations

import pytest

from corpdir.cache.store import CacheStore
from tui.test_snapshots import NARROW, WIDE, _still, synced_app  # noqa: F401  (_still: autouse fixture)
from tui_helpers import listed, screen_text, settle, wait_for


def person(user_id: int, name: str, extension: str | None) -> dict:
    record = {"userId": user_id, "fullname": name, "fullnameKana": "テスト", "sortScore": 0}
    return record | ({"extensionNum": extension} if extension else {})


def test_the_cache_lists_people_by_extension_shortest_first_and_those_without_last():
    store = CacheStore(":memory:")
    store.put_users([person(1, "甲", "1001"), person(2, "乙", None), person(3, "丙", "201"), person(4, "丁", "35"),
                     person(5, "戊", "0200")])
    by_extension = [u.userId for u in store.list_users(order_by="extensionNum")]
    assert by_extension == [4, 3, 5, 1, 2]  # 35, 201, 0200, 1001, none
    assert [u.userId for u in store.list_users(order_by="extensionNum", descending=True)] == by_extension[::-1]
    assert [u.userId for u in store.list_users(order_by="extensionNum", offset=1, limit=2)] == [3, 5]
    store.close()


def extension_key(user) -> tuple:
    return (not user.extensionNum, len(user.extensionNum or ""), user.extensionNum or "")


async def test_o_orders_the_directory_by_extension(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        assert await wait_for(pilot, listed(pilot, "#users"))
        await pilot.press("o", "o", "o")
        assert await wait_for(pilot, lambda: "by extension ↑" in screen_text(app))
        users = app.screen.query_one("#users")
        assert await wait_for(pilot, lambda: all(users.row(i) is not None for i in range(min(users.row_count, 20))))
        shown = [users.row(i) for i in range(min(users.row_count, 20))]
        assert shown == sorted(shown, key=extension_key) and len({u.extensionNum for u in shown}) > 1
        await pilot.press("f")  # a filter search: the service's order, by name
        app.screen.query_one("#filter-phoneNum").focus()
        await pilot.press(*"03")
        assert await wait_for(pilot, lambda: "by name ↑" in screen_text(app))


async def directory_by_extension(pilot) -> None:
    await settle(pilot, listed(pilot, "#users"))
    await pilot.press("o", "o", "o")
    await settle(pilot, lambda: pilot.app.screen.browse.order_by == "extensionNum" and listed(pilot, "#users")())


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x36"])
def test_snapshot_directory_by_extension(size, snap_compare, tmp_path):
    assert snap_compare(synced_app(tmp_path / "cache.sqlite3"), run_before=directory_by_extension, terminal_size=size)
