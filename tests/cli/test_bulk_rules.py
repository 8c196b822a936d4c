"""`corpdir bulk` checks each row against every rule of the spec before sending anything:
a destination's loginId follows the user's loginId rule (no space, not empty)."""

from __future__ import annotations

from service_fixtures import refused_bulk


async def test_a_login_id_with_a_space_or_empty_is_reported_with_its_line(tmp_path):
    path = tmp_path / "destinations.csv"
    path.write_text("loginId,destinationId,destinationName\nreception,1,受付\nre ception,2,会議\n,3,外出\n", encoding="utf-8")
    lines = await refused_bulk(path)
    assert lines[0].startswith("line 3: loginId:") and "'re ception'" in lines[0]
    assert lines[1].startswith("line 4: loginId: must not be empty")
    assert lines[-1].endswith("nothing was sent")
