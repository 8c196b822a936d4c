"""The first directory page a desk phone gets after the gateway starts with no sync, against
the tree before first pages (the whole directory read, told apart and laid out first), in
one run, interleaved.

    python bench/directory_pages_bench.py                      # 10k users + 10k contacts
    python bench/directory_pages_bench.py --size 100000 --rounds 3

Each round starts the gateway (one worker, no sync, the cache as bench/cache_bench.py builds
it: bench/out/cache-<size>.sqlite3) from this tree and from the baseline, each first in
turn; once it listens (its start done: the reading order is read then), a phone asks, one
request at a time: the Cisco directory's first page, its Next page, and Snom's first page,
each timed from request to the last byte. Every page must be the baseline's, byte for byte
(its URLs aside: another port). Printed: median and p95 of each (bench/_stats.py), the
ratio to the baseline, and the load average before and after. ``--against SRC`` takes the
baseline from a src directory instead of ``git archive --baseline``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import report  # noqa: E402 - bench/ is not a package
from gateway_bench import OUT, TOKEN, start_gateway  # noqa: E402

HERE = Path(__file__).parents[1]
BEFORE = "28e0a8ffada2f97b32521bb2631e174d1225c0c0"  # main before first pages
ASKED = (("Cisco first page", "/cisco/directory.xml"), ("Cisco Next page", None), ("Snom first page", "/snom/directory.xml"))


def baseline_src(rev: str) -> Path:
    """The src directory of ``rev`` (git archive into a temporary folder)."""
    folder = Path(tempfile.mkdtemp(prefix="pages-bench-"))
    archive = subprocess.run(["git", "-C", str(HERE), "archive", rev, "src"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src"


def get(url: str) -> tuple[float, bytes]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=300) as answer:
        body = answer.read()
    return time.perf_counter() - started, body


def next_url(body: bytes) -> str:
    """The Next soft key's URL of a Cisco page."""
    import xml.etree.ElementTree as ET

    keys = {k.findtext("Name"): k.findtext("URL") for k in ET.fromstring(body).findall("SoftKeyItem")}
    return keys["Next"]


def cold_pages(db: Path, src: Path) -> list[tuple[float, bytes]]:
    """A gateway started from ``src``: (seconds, body) of each page of ASKED, asked once it listens."""
    server, port = start_gateway(db, src, 1)
    try:
        base, found = f"http://127.0.0.1:{port}/t/{TOKEN}", []
        for _, path in ASKED:
            found.append(get(base + path if path else next_url(found[-1][1])))
        return [(seconds, body.replace(f":{port}/".encode(), b":PORT/")) for seconds, body in found]
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=10_000, help="users (and as many contacts) in the cache")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default=BEFORE, help="git revision of the baseline tree")
    parser.add_argument("--against", type=Path, help="the baseline's src directory (instead of --baseline)")
    args = parser.parse_args()
    db = OUT / f"cache-{args.size}.sqlite3"
    if not db.exists():
        from cache_bench import build

        OUT.mkdir(exist_ok=True)
        seconds, records = build(db, args.size)
        print(f"built {db.name}: {records} records in {seconds:.1f} s")
    trees = {"this tree": HERE / "src", "baseline": args.against or baseline_src(args.baseline)}
    print(f"cache {db.name}; load average before {os.getloadavg()}", flush=True)
    times: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        bodies = {}
        for tree in (list(trees) if round_ % 2 == 0 else list(reversed(trees))):
            pages = cold_pages(db, trees[tree])
            bodies[tree] = [body for _, body in pages]
            for (label, _), (seconds, _) in zip(ASKED, pages):
                times.setdefault((label, tree), []).append(seconds)
        if bodies["this tree"] != bodies["baseline"]:
            raise SystemExit(f"round {round_}: the pages differ from the baseline's")
    for label, _ in ASKED:
        report(f"{label} after a start, baseline", times[(label, "baseline")], unit="s")
        report(f"{label} after a start, this tree", times[(label, "this tree")], times[(label, "baseline")], unit="s")
    print(f"every page byte for byte the baseline's ({args.rounds} rounds); load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
