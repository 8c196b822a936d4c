"""Ctrl+C in the middle of `corpdir export -o FILE`: the command says it was interrupted and
exits 130, and neither the file nor its part is left (it printed a KeyboardInterrupt
traceback). A real process against the reference server on 127.0.0.1, paced by a token
bucket slow enough that the export is still running when Ctrl+C comes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from corpdir.server.settings import RateLimitSettings
from service_fixtures import LiveServer, demo_tenant, make_server


def test_ctrl_c_mid_export_leaves_no_file_and_says_so(tmp_path):
    live = LiveServer(make_server(demo_tenant(size=400), rate_limit=RateLimitSettings(enabled=True, burst=1, rate=2.0)))
    target, part = tmp_path / "people.csv", tmp_path / ".people.csv.part"
    env = {**os.environ, "CORPDIR_BASE_URL": live.base_url, "CORPDIR_API_KEY": "demo-reception"}
    try:
        proc = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "export", "users", "--from", "service", "-o",
                                 str(target)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for _ in range(1200):  # until the first page is in the part file, the export not finished
                if part.exists() and part.stat().st_size > 1000:
                    break
                time.sleep(0.05)
            assert proc.poll() is None, "the export finished before Ctrl+C"
            proc.send_signal(signal.SIGINT)
            errors = proc.communicate(timeout=60)[1].decode()
        finally:
            if proc.poll() is None:
                proc.kill()
    finally:
        live.stop()
    assert proc.returncode == 130 and "corpdir export: interrupted" in errors, errors
    assert "Traceback" not in errors
    assert not target.exists() and not part.exists()
