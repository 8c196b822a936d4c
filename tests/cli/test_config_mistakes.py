"""A config file with a mistake, as a new user writes one, stops each command with status 2
and a message naming the file or the table, key and rule: `corpdir lookup`'s fast reader
(no pydantic) included, and never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


def corpdir(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "corpdir.cli", *args], capture_output=True, text=True,
                          env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize("command", [["lookup", "03-1234-5678"], ["doctor"], ["sync", "--quiet"]])
def test_a_config_file_that_is_not_utf8_is_named(command):
    """Saved as Shift_JIS (テスト), as an editor on a Japanese desk may do."""
    path = Path(os.environ["CORPDIR_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes('[ui]\ntheme = "テスト"\n'.encode("shift_jis"))
    done = corpdir(*command)
    assert done.returncode == 2
    assert f"{path}: not UTF-8 text" in done.stderr and "Traceback" not in done.stderr, done.stderr
