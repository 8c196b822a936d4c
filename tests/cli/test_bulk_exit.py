"""`corpdir bulk` as a script runs it: a real process against the reference server on
127.0.0.1. Rows the service did not take end in a non-zero exit, not in 0."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.cli import EXIT_STATUS
from corpdir.commands.bulk import PARTLY_TAKEN
from service_fixtures import LiveServer, demo_tenant, make_server


@pytest.fixture(scope="module")
def live():
    tenant = demo_tenant()
    server = LiveServer(make_server(tenant))
    yield server, tenant
    server.stop()


def bulk(live_server: LiveServer, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CORPDIR_BASE_URL": live_server.base_url, "CORPDIR_API_KEY": "demo-admin"}
    return subprocess.run([sys.executable, "-m", "corpdir.cli", "bulk", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_destinations_the_service_did_not_register_exit_non_zero(live, tmp_path):
    server, tenant = live
    logins = [u["loginId"] for u in tenant.users if u.get("loginId")][:4]
    rows = "".join(f"{login},{i},desk {i}\n" for i, login in enumerate(logins, 1))
    path = tmp_path / "dest.csv"
    path.write_text(f"loginId,destinationId,destinationName\n{rows}no.such.login,9,nowhere\n", encoding="utf-8")
    done = bulk(server, "destinations", str(path))
    assert "4 registered. 1 not registered" in done.stdout, done.stderr
    assert done.returncode == PARTLY_TAKEN != 0
    everyone = tmp_path / "all.csv"
    everyone.write_text(f"loginId,destinationId,destinationName\n{rows}", encoding="utf-8")
    assert bulk(server, "destinations", str(everyone)).returncode == 0


def test_spots_none_accepted_exit_non_zero_and_help_says_which_status(live, tmp_path):
    server, _ = live
    path = tmp_path / "spots.csv"
    path.write_text("bleId,spotId\nno-such-tag,lobby\n", encoding="utf-8")
    done = bulk(server, "spots", str(path))
    assert "0 accepted" in done.stdout and done.returncode == PARTLY_TAKEN
    shown = bulk(server, "--help")
    assert f"{PARTLY_TAKEN} sent, but the service did not register or accept every row" in " ".join(shown.stdout.split())
    assert f"{PARTLY_TAKEN} sent, but" in EXIT_STATUS["bulk"]
