"""A reader that stops early (`corpdir export users | head -1`, a PBX script that closes the
pipe) ends the command quietly with 141, as a shell reports for a tool a closed pipe ended:
no "Broken pipe" error, no traceback, not the failure status 2 a script would act on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import lookup_helpers
from lookup_helpers import KEY
from service_fixtures import LiveServer, demo_tenant, make_server


@pytest.fixture(scope="module")
def server():
    """A tenant whose export is more than a pipe holds (the suite's usual one fits in it)."""
    live = LiveServer(make_server(demo_tenant(1000)))
    yield live
    live.stop()


def stopped_after_one_line(*argv: str, env: dict[str, str], stdin: Path | None = None) -> tuple[bytes, int, str]:
    with open(stdin or os.devnull, "rb") as given, \
            subprocess.Popen([sys.executable, "-m", "corpdir.cli", *argv], stdin=given, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env) as proc:
        line = proc.stdout.readline()
        proc.stdout.close()  # as `| head -1` does once it has its line
        code = proc.wait(timeout=120)
        return line, code, proc.stderr.read().decode()


@pytest.mark.parametrize("fmt", ["csv", "vcard"])
def test_an_export_to_a_closed_pipe_stops_quietly(server, fmt):
    env = {**os.environ, "CORPDIR_API_KEY": KEY}
    line, code, errors = stopped_after_one_line("export", "users", "--format", fmt, "--from", "service",
                                                "--base-url", server.base_url, env=env)
    assert line.startswith(b"userId," if fmt == "csv" else b"BEGIN:VCARD")
    assert (code, errors) == (141, "")


def test_a_lookup_pipe_closed_by_its_reader_stops_quietly(tmp_path):
    base = "http://127.0.0.1:9/v1"  # nothing listens: the cache answers, --offline
    lookup_helpers.fill_cache(base, [{"userId": 1, "fullname": "山田 太郎", "phoneNum": "03-1234-5678"}])
    env = {**os.environ, "CORPDIR_BASE_URL": base, "CORPDIR_API_KEY": KEY}
    numbers = tmp_path / "numbers"
    numbers.write_text("".join(f"03-1234-{n:04d}\n" for n in range(20_000)))  # answers: more than a pipe holds
    line, code, errors = stopped_after_one_line("lookup", "--stdin", "--offline", env=env, stdin=numbers)
    assert line.startswith(b"03-1234-0000\t")
    assert (code, errors) == (141, "")
