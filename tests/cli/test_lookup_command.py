"""`corpdir lookup` as a person or a PBX runs it: a real process, a real cache file, and
the reference server on 127.0.0.1 for numbers the cache does not know."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import lookup_helpers as helpers
from lookup_helpers import KEY
from service_fixtures import demo_tenant

YAMADA = {"userId": 9001, "fullname": "山田 太郎", "fullnameKana": "ヤマダ タロウ", "phoneNum": "03-1234-5678",
          "extensionNum": "4321", "divisions": [{"divisionId": 5, "divisionName": "総務部"}]}
SATO = {"contactId": 77, "fullname": "佐藤 一郎", "companyName": "テスト商事", "mobileNum": "090-1111-2222",
        "folderId": {"directory": "SHARED", "folderNum": 1}}
EVIL = {"userId": 9002, "fullname": "[red]x[/red]\x1b]52;c;AAAA\x07\nEvil", "phoneNum": "06-9999-0000"}


def fill_cache(base_url: str, *, synced_ago: float = 0.0) -> None:
    helpers.fill_cache(base_url, [YAMADA, EVIL], [SATO], synced_ago=synced_ago)


def run(*args: str, base_url: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return helpers.lookup(*args, base_url=base_url, stdin=stdin)


@pytest.mark.parametrize("written", ["+81 3-1234-5678", "03(1234)5678", "0312345678"])
def test_however_written_the_same_person_is_found_in_the_cache(written):
    base = "http://127.0.0.1:9/v1"  # nothing listens: only the cache can answer
    fill_cache(base)
    result = run(written, base_url=base)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{written}\t山田 太郎\t総務部\tperson\tuser:9001\n"


def test_some_not_found_exits_1_and_says_so():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    result = run("4321", "090-1111-2222", "0120-000-000", "--offline", base_url=base)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[0].split("\t")[1] == "山田 太郎"
    assert lines[1].split("\t")[1:] == ["佐藤 一郎", "テスト商事", "contact", "contact:77"]
    assert lines[2] == "0120-000-000\t-\tnot found\tunknown\t-"


def test_unreachable_service_for_an_unknown_number_exits_2():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    result = run("0120-000-000", base_url=base)
    assert result.returncode == 2
    assert "error" in result.stdout and "Traceback" not in result.stderr


def test_json_output_carries_every_item():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    result = run("--json", "03-1234-5678", "abc", base_url=base)
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["found"] and first["source"] == "cache" and first["items"][0]["userId"] == 9001
    assert (second["query"], second["found"], second["kind"], second["source"]) == ("abc", False, "unknown", "none")
    assert second["error"] == "not a phone number" and second["items"] == []
    assert result.returncode == 2


def test_service_answers_what_the_cache_lacks(server):
    fill_cache(server.base_url)  # the cache holds only Yamada; the demo tenant is on the server
    someone = next(u for u in demo_tenant().users if u.get("phoneNum", "").startswith("03-"))
    international = "+81 " + someone["phoneNum"][1:]
    result = run(international, "--json", base_url=server.base_url)
    answer = json.loads(result.stdout)
    assert result.returncode == 0, result.stderr
    assert answer["source"] == "service" and answer["items"][0]["displayName"] == someone["fullname"]


def test_fresh_checks_a_cached_number_with_the_service(server):
    fill_cache(server.base_url, synced_ago=24 * 3600)
    result = run("03-1234-5678", "--json", "--fresh", base_url=server.base_url)
    answer = json.loads(result.stdout)
    # the service does not know the cached Yamada: the cached answer is kept, marked as such
    assert answer["found"] and answer["source"] == "cache"


def test_stdin_answers_each_line_as_it_arrives():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    env = {**os.environ, "CORPDIR_BASE_URL": base, "CORPDIR_API_KEY": KEY}
    proc = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "lookup", "--stdin", "--offline"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    try:
        for number, name in (("03-1234-5678", "山田 太郎"), ("090 1111 2222", "佐藤 一郎")):
            proc.stdin.write(number + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()  # answered before the next line is sent
            assert line.split("\t")[1] == name
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()


def test_service_text_cannot_reach_the_terminal_raw():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    result = run("06-9999-0000", base_url=base)
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert result.stdout.count("\n") == 1  # the newline in the name does not split the answer
    assert "[red]x[/red]" in result.stdout  # shown as typed, not interpreted


def test_lookup_path_does_not_import_textual_or_the_client():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    code = ("import sys, runpy; sys.argv=['corpdir','lookup','--offline','03-1234-5678'];"
            "from corpdir import cli\ntry: cli.main()\nexcept SystemExit: pass\n"
            "heavy = ('textual', 'httpx', 'pydantic', 'phonenumbers')\n"
            "assert not [m for m in heavy if m in sys.modules], [m for m in heavy if m in sys.modules]")
    env = {**os.environ, "CORPDIR_BASE_URL": base, "CORPDIR_API_KEY": KEY}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr


def test_full_width_numbers_are_numbers_as_arguments_and_on_stdin():
    base = "http://127.0.0.1:9/v1"
    fill_cache(base)
    typed = run("０３−１２３４−５６７８", "--offline", base_url=base)
    assert typed.returncode == 0, typed.stdout
    assert typed.stdout.split("\t")[1] == "山田 太郎"
    piped = run("--stdin", "--offline", base_url=base, stdin="（０３）１２３４ー５６７８\n０９０‐１１１１‐２２２２\n４３２１\n")
    assert piped.returncode == 0, piped.stdout
    assert [line.split("\t")[1] for line in piped.stdout.splitlines()] == ["山田 太郎", "佐藤 一郎", "山田 太郎"]
