"""Hostile directory text through every command-line surface, as a terminal would get it:
real `corpdir` processes, the raw bytes they write checked for ESC, C1, bidi and invisible
characters (tests/hostile_text.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from corpdir.cache.store import CacheStore
from corpdir.paths import Profile
from hostile_text import HOSTILE, assert_inert

KEY = "demo-reception"
OFFLINE = "http://127.0.0.1:9/v1"  # nothing listens: only the cache can answer
NUMBERS = {name: f"03-5555-{i:04d}" for i, name in enumerate(HOSTILE)}


def hostile_users() -> list[dict]:
    return [{"userId": 7000 + i, "fullname": value, "fullnameKana": "テスト", "position": value,
             "phoneNum": NUMBERS[name], "divisions": [{"divisionId": 5, "divisionName": value}]}
            for i, (name, value) in enumerate(HOSTILE.items())]


@pytest.fixture
def hostile_cache():
    store = CacheStore(Profile(OFFLINE, KEY).cache_path())
    store.put_users(hostile_users())
    store.mark_synced("users", time.time())
    store.close()


def corpdir(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CORPDIR_BASE_URL": OFFLINE, "CORPDIR_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "corpdir.cli", *args], capture_output=True, env=env, timeout=120)


def test_lookup_lines_are_inert(hostile_cache):
    result = corpdir("lookup", "--offline", *NUMBERS.values())
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    lines = result.stdout.decode().splitlines()
    assert len(lines) == len(HOSTILE)  # no \r or newline in a name splits an answer
    assert "abc<U+202E>dcba.exe" in lines[list(HOSTILE).index("bidi")]


def test_lookup_json_escapes_c1_bidi_and_invisible_characters_but_keeps_the_data(hostile_cache):
    result = corpdir("lookup", "--offline", "--json", *NUMBERS.values())
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [a["items"][0]["displayName"] for a in answers] == list(HOSTILE.values())
