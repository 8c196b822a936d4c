"""`corpdir --base-url URL COMMAND`, as `corpdir --help` shows the flag before the command,
reaches that service: the command's own --base-url, not given, used to put None over it,
and `sync` synced the configured service (or the demo) and said it had succeeded."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.cli import parse_args

URL = "http://127.0.0.1:9/v1"
COMMANDS = {"sync": [], "export": ["users"], "bulk": ["destinations", "x.csv"], "gateway": [], "ldap-sync": ["--url", "ldap://127.0.0.1:389", "--base-dn", "ou=phonebook,dc=example,dc=com"],
            "doctor": [], "lookup": ["0312345678"]}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_url_before_the_command_is_the_one_used(command):
    assert parse_args(["--base-url", URL, command, *COMMANDS[command]]).base_url == URL
    assert parse_args([command, "--base-url", URL, *COMMANDS[command]]).base_url == URL
    assert parse_args([command, *COMMANDS[command]]).base_url is None


def test_sync_with_the_url_before_it_asks_that_service():
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "--base-url", URL, "sync", "--quiet"],
                          capture_output=True, text=True, env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2 and "Could not connect to the directory service" in done.stderr, done.stderr
