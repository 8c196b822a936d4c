"""`corpdir bulk` on files as large or as wrong as they come: refused above the size cap
without being read, the first 100 problems listed and the rest counted."""

from __future__ import annotations

import os
import subprocess
import sys

from corpdir.service.bulk import MAX_CSV_BYTES, MAX_PROBLEMS
from service_fixtures import refused_bulk

HEADER = "loginId,destinationId,destinationName\n"


async def test_a_million_bad_rows_list_100_problems_and_count_the_rest(tmp_path):
    path = tmp_path / "bad.csv"
    with path.open("w", encoding="utf-8") as f:
        f.write(HEADER)
        for i in range(5000):
            f.write(f"reception,not-a-number-{i},受付\n")
    lines = await refused_bulk(path)
    assert len(lines) == MAX_PROBLEMS + 2
    assert lines[0].startswith("line 2: destinationId:") and lines[MAX_PROBLEMS - 1].startswith("line 101: ")
    assert lines[MAX_PROBLEMS] == "… and 4900 more problems (only the first 100 are listed)"
    assert lines[-1] == f"5000 problems in {path}: nothing was sent"


def test_a_file_over_the_cap_is_refused_without_being_read(tmp_path):
    path = tmp_path / "huge.csv"
    with path.open("wb") as f:  # 200 MB, sparse: what it holds does not matter, only its size
        f.write(HEADER.encode())
        f.truncate(200 * 10**6)
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across fork and exec, so a child of a
    # large pytest worker reported the worker's peak (300 MB under -n 2), not its own
    code = ("import re, sys; from corpdir.cli import main\n"
            "try: code = main()\nexcept SystemExit as e: code = e.code\n"
            "peak = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1)\n"
            "print(peak, file=sys.stderr); sys.exit(code)")
    env = {**os.environ, "CORPDIR_BASE_URL": "http://127.0.0.1:9/v1", "CORPDIR_API_KEY": "demo-admin"}
    result = subprocess.run([sys.executable, "-c", code, "bulk", "destinations", str(path), "--check"],
                            capture_output=True, text=True, env=env, timeout=120)
    *said, peak_kib = result.stderr.splitlines()
    assert result.returncode == 1, result.stderr
    assert f"the file is larger than {MAX_CSV_BYTES // 2**20} MiB" in "\n".join(said) and "nothing was sent" in said[-1]
    assert int(peak_kib) < 200 * 1024  # KiB: far from the file's 200 MB
