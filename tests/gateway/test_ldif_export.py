"""`corpdir export --format ldif` as a shell user runs it: to a file, to standard output,
into a pipe that a reader closes early (`| head`).

The export of both kinds is written by two processes (the users here, the contacts and
the shared lines in a second one, copied after them); the file must be the one a single
process writes record by record, whichever way it leaves the command.
"""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys

import pytest

from corpdir import cli
from service_fixtures import SMALL_SIZE, LiveServer, make_server

BASE_DN = "ou=phonebook,dc=example,dc=com"


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    """The environment of a profile whose cache holds the demo tenant (users, shared
    contacts, divisions), synced once for the module."""
    tmp = tmp_path_factory.mktemp("ldif-export")
    live = LiveServer(make_server())
    env = {"CORPDIR_BASE_URL": live.base_url, "CORPDIR_API_KEY": "demo-reception",
           "CORPDIR_CACHE_DIR": str(tmp / "cache"), "CORPDIR_CONFIG": os.devnull}
    patch = pytest.MonkeyPatch()
    for name, value in env.items():
        patch.setenv(name, value)
    try:
        assert cli.main(["sync", "--quiet"]) == 0
        yield env
    finally:
        live.stop()
        patch.undo()


@pytest.fixture
def synced(profile, monkeypatch):
    """This test in the synced profile (the suite gives each test empty directories of its own)."""
    for name, value in profile.items():
        monkeypatch.setenv(name, value)


def one_process() -> str:
    """The LDIF as one process writes it: users, contacts, then the shared lines."""
    from corpdir.config import load_settings
    from corpdir.gateway.ldap.export import write_ldif
    from corpdir.service.directory import DirectoryService
    from corpdir.service.phonebook import Phonebook

    async def write() -> str:
        service = DirectoryService.open(load_settings().service)
        phonebook = Phonebook(service, one_pass=True)
        out = io.StringIO()
        try:
            await write_ldif(phonebook, BASE_DN, ("user", "contact"), out)
        finally:
            phonebook.close()
            await service.close()
        return out.getvalue()

    return asyncio.run(write())


def export(*argv: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "corpdir.cli", "export", "--format", "ldif", "--base-dn", BASE_DN,
                             *argv], env=os.environ.copy(), stderr=subprocess.PIPE, **kwargs)


def test_the_file_and_standard_output_hold_what_one_process_writes(synced, tmp_path):
    target = tmp_path / "phonebook.ldif"
    with export("-o", str(target)) as to_file:
        assert to_file.wait() == 0, to_file.stderr.read().decode()
    with export(stdout=subprocess.PIPE) as to_stdout:
        printed, errors = to_stdout.communicate()
    assert to_stdout.returncode == 0, errors.decode()
    expected = one_process()
    assert expected.count("\ndn: uid=user-") == SMALL_SIZE and expected.count("\ndn: uid=contact-") > 100
    assert "\ndn: uid=company-" in expected.split("\ndn: uid=contact-")[-1]  # the lines come after the contacts
    assert target.read_bytes() == expected.encode()
    assert printed == expected.encode()


def test_a_reader_that_stops_early_ends_the_export_quietly(synced):
    with export(stdout=subprocess.PIPE) as proc:
        assert proc.stdout.readline() == b"version: 1\n"
        proc.stdout.close()  # as `| head -1` does once it has its line
        code = proc.wait()
        errors = proc.stderr.read().decode()
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
    assert code == 141  # what a shell reports for a tool a closed pipe ended
