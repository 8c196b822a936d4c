"""Browsing the division tree and a division's people on every interface variant: the
façade asks the variant table which filters exist (A and B have no D1 firstLayer, no
childDivisionIds and no U1 includeSubDepartment), so a smaller service is browsed with
the requests it understands and shows the same tree."""

from __future__ import annotations

import pytest

from service_fixtures import make_server, make_service


@pytest.mark.parametrize("variant", ["A", "B", "C"])
async def test_the_tree_and_a_divisions_people_come_from_any_variant(variant):
    service = make_service(make_server(variant=variant), api_key="demo-admin", variant=variant)
    try:
        tops = await service.refresh_child_divisions(None)
        assert tops and all(not d.parentDivisionId for d in tops)
        for parent in tops:
            children = await service.refresh_child_divisions(parent)
            if children:
                break
        assert children and all(d.parentDivisionId == parent.divisionId for d in children)
        member_of_a_child = await service.refresh_users(children[0].divisionId)
        assert await service.refresh_users(parent.divisionId, include_sub=True) >= member_of_a_child
    finally:
        await service.close()
