"""The embedded demo on a fresh install: its data directory (the tenant's database, with
personal data and password hashes) is made 0700, so no lookup warns about it (a real
process, HOME and the XDG directories fresh); a cache folder that cannot be made is named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_a_fresh_demo_data_directory_is_private_and_lookups_do_not_warn(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CORPDIR_", "XDG_"))}
    env.update(HOME=str(tmp_path), **{f"XDG_{kind}_HOME": str(tmp_path / kind.lower())
                                      for kind in ("DATA", "CACHE", "CONFIG", "STATE")})
    runs = [subprocess.run([sys.executable, "-m", "corpdir.cli", "lookup", "0312345678"], env=env,
                           capture_output=True, text=True, timeout=300) for _ in range(2)]
    demo = tmp_path / "data" / "corpdir" / "demo"
    assert (demo / "corpdir.sqlite3").exists()  # the embedded demo was generated where the test looks
    assert demo.stat().st_mode & 0o777 == 0o700
    for run in runs:
        assert run.returncode in (0, 1), run.stderr
        assert "readable by others" not in run.stderr and "Traceback" not in run.stderr


def test_a_cache_folder_that_is_a_file_is_named_with_status_2(tmp_path):
    """A mistyped CORPDIR_CACHE_DIR (a file) ended sync and export in mkdir's traceback."""
    a_file = tmp_path / "cache"
    a_file.write_text("x", encoding="utf-8")
    env = {**os.environ, "CORPDIR_CACHE_DIR": str(a_file), "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1"}
    for command in (["sync", "--quiet"], ["export", "users"]):
        done = subprocess.run([sys.executable, "-m", "corpdir.cli", *command], env=env, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert (f"corpdir {command[0]}: cannot open the local cache or data: a file is where a folder should be "
                f"({a_file}); CORPDIR_CACHE_DIR and CORPDIR_DATA_DIR move them") in done.stderr, done.stderr


def test_a_damaged_cache_file_is_set_aside_and_named():
    """A cache file that is not SQLite (a crash, a full disk) ended sync in sqlite3's
    traceback: it is moved aside, said with both names, and the sync goes on into a new one
    (here its service is unreachable: exit 2 for that, not for the cache)."""
    from corpdir.paths import Profile

    cache = Profile("http://127.0.0.1:9/v1", "k").cache_path()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("not a database, not at all" * 100, encoding="utf-8")
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "k"}
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "sync", "--quiet"], env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"the cache {cache} could not be read (file is not a database): set aside as {cache}.damaged" in done.stderr
    assert Path(f"{cache}.damaged").read_text(encoding="utf-8").startswith("not a database")
