"""First start from an empty home: the real `corpdir` under a 120x36
pseudo-terminal, with empty data, cache and state directories each run (as on a fresh
install), from spawn to the first frame that shows a named row of the demo tenant.

    python bench/first_start_bench.py [--runs 5]

Goal: median <= 2.5 s. Baseline in the same run: the same start with a warm home (demo
data and cache already there), and a bare Textual app to its first frame.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import report  # noqa: E402
from tui_bench import BARE_APP, time_to_text  # noqa: E402


def first_name() -> str:
    """The first person "by name" of the demo tenant (what the first screen shows first)."""
    from corpdir.cache.reading import sort_key
    from corpdir.server.demo import generate_tenant

    users = generate_tenant().users
    return min(users, key=lambda u: (sort_key(u), u["userId"]))["fullname"]


def home_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORPDIR_")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", HOME=str(home), CORPDIR_DATA_DIR=str(home / "data"),
               CORPDIR_CACHE_DIR=str(home / "cache"), CORPDIR_STATE_DIR=str(home / "state"),
               CORPDIR_CONFIG=os.devnull)
    return env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    script = shutil.which("corpdir", path=os.path.dirname(sys.executable))
    corpdir = [script] if script else [sys.executable, "-m", "corpdir.cli"]
    import corpdir as package

    # corpdir's bytecode compiled, as `pip install` leaves it (see tui_bench.py)
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(package.__file__)], check=True)
    marker = first_name().encode()
    load = os.getloadavg()[0]
    fresh, warm, bare = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            home = Path(tmp) / f"home{run}"
            home.mkdir()
            env = home_env(home)
            fresh.append(time_to_text(corpdir, marker, env, timeout=60.0)[0])
            warm.append(time_to_text(corpdir, marker, env, timeout=60.0)[0])
            bare.append(time_to_text([sys.executable, "-c", BARE_APP], b"bare-app-ready", env)[0])
    print(f"first row expected: {marker.decode()}; load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    report("fresh home: spawn to first named row", fresh, bare, unit="s")
    report("baseline: the same home again (warm)", warm, bare, unit="s")
    report("baseline: bare Textual app to first frame", bare, unit="s")


if __name__ == "__main__":
    main()
