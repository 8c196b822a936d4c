"""`corpdir sync` killed with SIGKILL mid-way leaves a consistent cache, and the next
sync completes it: no duplicates, nothing lost (a real process, a real server on
127.0.0.1, a token bucket slow enough that the sync is still running when it is killed)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from corpdir.paths import Profile
from corpdir.server.settings import RateLimitSettings
from service_fixtures import LiveServer, demo_tenant, make_server

KEY = "demo-reception"


def cache_rows(path) -> tuple[int, int, int]:
    conn = sqlite3.connect(path)
    try:
        users = conn.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM users").fetchone()
        orphans = conn.execute("SELECT COUNT(*) FROM search_terms t WHERE t.kind = 'user' AND NOT EXISTS"
                               " (SELECT 1 FROM users u WHERE u.id = t.id)").fetchone()[0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return users[0], users[1], orphans
    finally:
        conn.close()


def test_sync_killed_mid_way_then_resumed():
    tenant = demo_tenant(size=400)  # 4 pages of users; at 4 requests/s the sync runs for seconds
    live = LiveServer(make_server(tenant, rate_limit=RateLimitSettings(enabled=True, burst=2, rate=4.0)))
    try:
        env = {**os.environ, "CORPDIR_BASE_URL": live.base_url, "CORPDIR_API_KEY": KEY}
        cache = Profile(live.base_url, KEY).cache_path()
        proc = subprocess.Popen([sys.executable, "-m", "corpdir.cli", "sync", "--quiet"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(600):  # until some users are stored, but the sync is not finished
                time.sleep(0.05)
                if cache.exists():
                    try:
                        if cache_rows(cache)[0] > 0:
                            break
                    except sqlite3.OperationalError:
                        pass
            assert proc.poll() is None, "the sync finished before it could be killed"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
        stored, distinct, orphans = cache_rows(cache)
        assert 0 < stored < len(tenant.users) and stored == distinct and orphans == 0  # whole pages only
        done = subprocess.run([sys.executable, "-m", "corpdir.cli", "sync", "--quiet"], env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        stored, distinct, orphans = cache_rows(cache)
        visible = len(tenant.users)  # the reception key sees every user
        assert stored == distinct == visible and orphans == 0
    finally:
        live.stop()
