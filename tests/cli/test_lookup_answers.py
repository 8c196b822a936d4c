"""`corpdir lookup` as a PBX pipe or a shell user reads it: the same five columns for every
answer, a stale cache answering at once with its age said, a source for every number the
service was asked about, the division path as names, and an exit status for each outcome.
Real processes, a real cache file; the reference server on 127.0.0.1 where the service
must answer, and a closed port (127.0.0.1:9) where it must not be needed."""

from __future__ import annotations

import json
import subprocess

import lookup_helpers as helpers
CLOSED = "http://127.0.0.1:9/v1"  # nothing listens: an answer that needs the service fails
DIVISIONS = [{"divisionId": 1, "divisionName": "本社"}, {"divisionId": 2, "divisionName": "営業本部", "parentDivisionId": 1},
             {"divisionId": 3, "divisionName": "1課", "parentDivisionId": 2}]
YAMADA = {"userId": 9001, "fullname": "山田 太郎", "phoneNum": "03-1234-5678",
          "divisions": [{"divisionId": 3, "divisionName": "1課"}]}


def fill_cache(base_url: str, *, synced_ago: float = 0.0) -> None:
    helpers.fill_cache(base_url, [YAMADA], divisions=DIVISIONS, synced_ago=synced_ago)


def lookup(*args: str, base_url: str = CLOSED) -> subprocess.CompletedProcess:
    return helpers.lookup(*args, base_url=base_url)


def test_offline_without_a_cache_says_there_is_none_and_exits_2():
    result = lookup("--offline", "03-1234-5678")
    assert result.returncode == 2
    assert "no cache" in result.stderr and "corpdir sync" in result.stderr
    assert result.stdout == ""  # no "not found": nobody was looked for


def test_offline_on_a_damaged_cache_says_it_cannot_be_read_and_how_it_is_rebuilt():
    from corpdir.paths import Profile

    path = Profile(CLOSED, helpers.KEY).cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"garbage, not SQLite " * 500)  # a disk that filled mid-write, a file copied over it
    result = lookup("--offline", "03-1234-5678")
    assert result.returncode == 2 and result.stdout == ""
    assert f"the cache {path} cannot be read (file is not a database)" in result.stderr
    assert "`corpdir sync` sets it aside" in result.stderr and "no cache" not in result.stderr


def test_every_text_line_has_the_same_five_columns():
    fill_cache(CLOSED)
    result = lookup("--offline", "03-1234-5678", "0120-000-000", "anonymous", "abc")
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [len(row) for row in rows] == [5, 5, 5, 5]
    assert rows[0] == ["03-1234-5678", "山田 太郎", "本社 › 営業本部 › 1課", "person", "user:9001"]
    assert rows[1] == ["0120-000-000", "-", "not found", "unknown", "-"]
    assert rows[2] == ["anonymous", "withheld", "-", "withheld", "-"]
    assert rows[3] == ["abc", "-", "error: not a phone number", "unknown", "-"]


def test_a_stale_cache_answers_at_once_and_says_its_age():
    fill_cache(CLOSED, synced_ago=20 * 60)  # the service cannot be reached: only the cache can answer
    text = lookup("03-1234-5678")
    assert text.returncode == 0, text.stderr
    assert text.stdout.split("\t")[1] == "山田 太郎"
    assert "synced 20 minutes ago" in text.stderr
    answer = json.loads(lookup("--json", "03-1234-5678").stdout)
    assert (answer["source"], answer["stale"]) == ("cache", True)
    assert 20 * 60 <= answer["cacheAge"] < 30 * 60


def test_a_fresh_cache_says_nothing_on_stderr_and_is_not_stale():
    fill_cache(CLOSED)
    result = lookup("--json", "03-1234-5678")
    answer = json.loads(result.stdout)
    assert result.returncode == 0 and result.stderr == ""
    assert answer["stale"] is False and answer["cacheAge"] < 15 * 60


def test_a_stale_cache_still_asks_the_service_about_a_miss(server):
    fill_cache(server.base_url, synced_ago=20 * 60)
    result = lookup("--json", "0120-000-000", base_url=server.base_url)
    answer = json.loads(result.stdout)
    assert result.returncode == 1
    assert (answer["found"], answer["source"], answer["cacheAge"]) == (False, "service", None)


def test_fresh_asks_the_service_about_a_number_the_cache_knows():
    fill_cache(CLOSED)
    result = lookup("--fresh", "--json", "03-1234-5678", "0120-000-000")
    known, unknown = (json.loads(line) for line in result.stdout.splitlines())
    assert known["found"] and known["source"] == "cache"  # the service failed: the cached answer stands
    assert unknown["source"] == "service" and unknown["error"]  # asked, and the failure is the service's
    assert result.returncode == 2


def test_the_json_item_gives_the_division_path_as_names_and_joined():
    fill_cache(CLOSED)
    item = json.loads(lookup("--json", "03-1234-5678").stdout)["items"][0]
    assert item["divisionNames"] == ["本社", "営業本部", "1課"]
    assert item["divisionPath"] == "本社 › 営業本部 › 1課" and item["divisionPaths"] == ["本社 › 営業本部 › 1課"]


def test_a_withheld_number_has_an_exit_status_of_its_own():
    fill_cache(CLOSED)
    assert lookup("--offline", "anonymous").returncode == 3
    assert lookup("--offline", "anonymous", "03-1234-5678").returncode == 3
    assert lookup("--offline", "anonymous", "0120-000-000").returncode == 1  # not found outranks withheld
