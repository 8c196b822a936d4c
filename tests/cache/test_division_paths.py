"""The cache knows each division's path from the top."""


def test_cache_gives_each_division_its_path(store):
    paths = store.division_paths([12, 9, 404])
    assert paths == {12: ["営業本部", "第一営業部", "1課"], 9: ["営業本部"]}


def test_a_parent_loop_in_the_cache_ends(store):
    store.put_divisions([{"divisionId": 20, "parentDivisionId": 21, "divisionName": "A"},
                         {"divisionId": 21, "parentDivisionId": 20, "divisionName": "B"}])
    assert store.division_paths([20]) == {20: ["B", "A"]}
