"""Cache benchmarks: search per keystroke, caller-ID in-process and as a whole
process, over a cache of 100k users + 100k contacts built from the demo generator.

    python bench/cache_bench.py [--size 100000] [--rebuild] [--process-only] [--against SRC]

Goals: keystroke search p95 < 10 ms; `corpdir lookup` process median < 120 ms;
in-process lookup < 1 ms. Baselines measured in the same run: a LIKE scan over the same
terms (search), `python -c pass` (process start). ``--against SRC`` also times the lookup
process with another checkout's ``src`` first on PYTHONPATH, run for run in turn with this
one, so a change is measured before and after under the same load.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import site
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _stats import clean_python, report  # noqa: E402

from corpdir.cache import numbers  # noqa: E402
from corpdir.cache.folding import fold  # noqa: E402
from corpdir.cache.search import Searcher  # noqa: E402
from corpdir.cache.store import CacheStore  # noqa: E402
from corpdir.paths import Profile  # noqa: E402
from corpdir.service.identify import read_number  # noqa: E402

OUT = Path(__file__).parent / "out"


def as_responses(tenant):  # noqa: ANN001, ANN201 - DemoTenant -> response-shaped dicts
    names = {d["divisionId"]: d["divisionName"] for d in tenant.divisions}
    users = []
    for u in tenant.users:
        record = {k: v for k, v in u.items() if k not in ("password", "divisionIds", "tenantCucmAdapterSettingsId", "tenantAlphaAdapterSettingsId")}
        record["divisions"] = [{"divisionId": i, "divisionName": names.get(i)} for i in u.get("divisionIds", [])]
        users.append(record)
    contacts = []
    for c in tenant.contacts:
        record = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in c.items() if k not in ("ownerUserId", "registeredUserId")}
        contacts.append(record)
    return users, contacts


def build(path: Path, size: int) -> tuple[float, int]:
    from corpdir.server.demo import generate_tenant

    tenant = generate_tenant(size=size, contacts=size, seed=1)
    users, contacts = as_responses(tenant)
    store = CacheStore(path)
    started = time.perf_counter()
    for i in range(0, len(users), 1000):
        store.put_users(users[i:i + 1000])
    for i in range(0, len(contacts), 1000):
        store.put_contacts(contacts[i:i + 1000])
    store.put_divisions(tenant.divisions)
    store.mark_synced("users")
    seconds = time.perf_counter() - started
    store.close()
    return seconds, len(users) + len(contacts)


def keystrokes(store: CacheStore, rng: random.Random, count: int) -> list[str]:
    """Queries as typed: each name, kana, romaji or number, one character more each time."""
    rows = store._rows("SELECT data FROM users ORDER BY random() LIMIT ?", (count,))
    words = []
    for (blob,) in rows:
        u = store.codec.load(blob)
        words.append(rng.choice([u.get("fullname"), u.get("fullnameKana"), (u.get("fullnameAlphabet") or "").split(" ")[-1],
                                 (u.get("companyMobileNum") or u.get("phoneNum") or "")[-8:]]) or u["fullname"])
    return words


def bench_search(store: CacheStore, words: list[str]) -> None:
    times, baseline = [], []
    for word in words:
        searcher = Searcher(store)
        for end in range(1, len(word) + 1):
            started = time.perf_counter()
            searcher.search(word[:end], 50)
            times.append(time.perf_counter() - started)
    for word in words[:40]:  # baseline: a plain LIKE scan over the same terms
        started = time.perf_counter()
        store._rows("SELECT kind, id FROM search_terms WHERE term LIKE ? LIMIT 50", (f"%{fold(word)}%",))
        baseline.append(time.perf_counter() - started)
    report("search per keystroke (Searcher, 50 hits)", times, baseline)
    report("baseline: LIKE '%q%' over the same terms", baseline)


def bench_lookup_in_process(store: CacheStore, rng: random.Random) -> list[str]:
    rows = store._rows("SELECT data FROM users ORDER BY random() LIMIT 500")
    wanted = [n for (blob,) in rows for n in [store.codec.load(blob).get("phoneNum")] if n]
    forms = []
    for n in wanted:
        d = "".join(ch for ch in n if ch.isdigit())
        forms.append(rng.choice([n, d, "+81 " + d[1:] if d.startswith("0") else n]))
    times = []
    for n in forms:
        started = time.perf_counter()
        read_number(n, store.holders)  # the one answer, as every surface asks it
        times.append(time.perf_counter() - started)
    report("caller-ID in-process (cache hit)", times, unit="us")
    return forms


# What pip (25.0 on) and uv write for `[project.scripts] corpdir = "corpdir.cli:run"`:
# the command a user runs. pip before 25.0 (distlib's template) also imports and compiles
# `re` in it, ~26 M instructions that no code of corpdir's can leave out: timed beside.
CONSOLE_SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import sys
from corpdir.cli import run
if __name__ == '__main__':
    if sys.argv[0].endswith('-script.pyw'):
        sys.argv[0] = sys.argv[0][:-11]
    elif sys.argv[0].endswith('.exe'):
        sys.argv[0] = sys.argv[0][:-4]
    sys.exit(run())
"""
OLD_PIP_SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from corpdir.cli import run
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(run())
"""


def clean_console_script(template: str = CONSOLE_SCRIPT, name: str = "corpdir") -> str:
    """The `corpdir` console script in the clean venv, as an install there has it (no
    runpy, which `python -m corpdir.cli` adds: ~6 M instructions)."""
    python = clean_python()
    script = Path(python).with_name(name)
    script.write_text(template.format(python=python))
    script.chmod(0o755)
    return str(script)


def stale_copy(db: Path, name: str, folder: str, env: dict[str, str]) -> dict[str, str]:
    """A copy of the cache in ``folder`` last synced 20 minutes ago (past the 15-minute
    ``stale_after``), the original marked synced now; ``env`` pointed at the copy."""
    import sqlite3

    os.makedirs(folder)
    with sqlite3.connect(db) as src, sqlite3.connect(os.path.join(folder, name)) as dst:
        src.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('synced_at:users', ?)", (repr(time.time()),))
        src.commit()
        src.backup(dst)
        dst.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('synced_at:users', ?)", (repr(time.time() - 1200),))
    return {**env, "CORPDIR_CACHE_DIR": folder}


def bench_lookup_process(db: Path, forms: list[str], runs: int, against: Path | None = None) -> None:
    base_url, key = "http://127.0.0.1:9/v1", "bench-key"
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CORPDIR_BASE_URL": base_url, "CORPDIR_API_KEY": key, "CORPDIR_CACHE_DIR": tmp,
               "CORPDIR_CONFIG": os.devnull}
        os.environ.update({"CORPDIR_CACHE_DIR": tmp})
        target = Profile(base_url, key).cache_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(db, target)
        stale_env = stale_copy(db, target.name, os.path.join(tmp, "stale"), env)
        # The console script next to this interpreter, as installed (not a pyenv shim, whose
        # bash costs more than corpdir itself), run with the caller's environment as is.
        script = shutil.which("corpdir", path=os.path.dirname(sys.executable)) or shutil.which("corpdir")
        command = [script, "lookup", "--offline"] if script else [sys.executable, "-m", "corpdir.cli", "lookup", "--offline"]
        # Secondary figure: with corpdir's bytecode cached, as an installed wheel has it. Under
        # PYTHONDONTWRITEBYTECODE (set in some sandboxes) an editable install compiles
        # corpdir's modules from source at every start.
        cached_env = {**env, "PYTHONPYCACHEPREFIX": os.path.join(tmp, "pycache")}
        cached_env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run(command + [forms[0]], env=cached_env, capture_output=True, check=False)  # writes the bytecode
        other_env = {**env, "PYTHONPATH": str(against)} if against else None
        # The figure a user without this machine's site hook sees: the clean venv's
        # interpreter, bytecode cached. A cache hit needs the standard library and, to read a
        # record, the Zstandard backport: the installed packages on PYTHONPATH (whose .pth
        # files, the hook among them, are not run from there).
        clean_command = [clean_console_script(), "lookup", "--offline"]
        module_command = [clean_python(), "-m", "corpdir.cli", "lookup", "--offline"]
        packages = [p for p in site.getsitepackages() if Path(p, "backports").is_dir()]
        clean_env = {**cached_env, "PYTHONPATH": os.pathsep.join([str(Path(numbers.__file__).parents[2]), *packages])}
        clean_other_env = {**cached_env, "PYTHONPATH": os.pathsep.join([str(against), *packages])} if against else None
        times, baseline, cached, failed, other, clean, clean_other, module = [], [], [], [], [], [], [], []
        old_pip = []
        old_pip_command = [clean_console_script(OLD_PIP_SCRIPT, "corpdir-pip24"), "lookup", "--offline"]
        fresh_online, stale_online = [], []
        cpu: dict[int, list[float]] = {}  # id(samples) -> the child's CPU seconds: steadier than wall time under load
        load = os.getloadavg()[0]

        def timed(samples: list[float], argv: list[str], run_env: dict[str, str] | None, answers: bool = True) -> None:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run(argv, env=run_env, capture_output=True, check=False)
            samples.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.setdefault(id(samples), []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if answers and (done.returncode != 0 or b"\tnot found" in done.stdout):
                failed.append(done)  # every form is a cached number: each run must answer it (exit 0: found)

        for i in range(runs):
            argv = command + [forms[i % len(forms)]]
            pair = [(times, env), (other, other_env)] if other_env is not None else [(times, env)]
            for samples, run_env in pair if i % 2 == 0 else reversed(pair):  # neither always goes first
                timed(samples, argv, run_env)
            timed(baseline, [clean_python(), "-c", "pass"], None, answers=False)
            timed(cached, argv, cached_env)
            clean_argv = clean_command + [forms[i % len(forms)]]
            pair = [(clean, clean_env), (clean_other, clean_other_env)] if against else [(clean, clean_env)]
            for samples, run_env in pair if i % 2 == 0 else reversed(pair):
                timed(samples, clean_argv, run_env)
            timed(module, module_command + [forms[i % len(forms)]], clean_env)
            timed(old_pip, old_pip_command + [forms[i % len(forms)]], clean_env)
            # without --offline: a stale cache must answer as fast as a fresh one (the service,
            # 127.0.0.1:9, refuses: asking it would fail the run)
            online = [clean_console_script(), "lookup", forms[i % len(forms)]]
            timed(fresh_online, online, clean_env)
            timed(stale_online, online, {**clean_env, "CORPDIR_CACHE_DIR": stale_env["CORPDIR_CACHE_DIR"]})
        if failed:
            raise SystemExit(f"{len(failed)} lookups did not answer from the cache: {failed[0]}")
        report(f"`{os.path.basename(command[0])} lookup` whole process", times, baseline)
        report("baseline: python -c pass (clean venv)", baseline)
        report("  the same, corpdir's bytecode cached", cached, baseline)
        report("CPU time: `lookup` process", cpu[id(times)], cpu[id(baseline)])
        if other:
            report(f"  the same, with {against}", other, baseline)
            report(f"CPU time: the same, with {against}", cpu[id(other)], cpu[id(baseline)])
        report("CPU time: python -c pass (clean venv)", cpu[id(baseline)])
        report("lookup in the clean venv (console script), bytecode cached", clean, baseline)
        report("CPU time: the same", cpu[id(clean)], cpu[id(baseline)])
        report("  the same as `python -m corpdir.cli`", module, baseline)
        report("CPU time: the same", cpu[id(module)], cpu[id(baseline)])
        report("  the same through pip < 25's console script (imports re)", old_pip, baseline)
        report("CPU time: the same", cpu[id(old_pip)], cpu[id(baseline)])
        report("  not --offline, cache synced just now", fresh_online, baseline)
        report("  not --offline, cache synced 20 minutes ago", stale_online, fresh_online)
        report("CPU time: the same, synced 20 minutes ago", cpu[id(stale_online)], cpu[id(fresh_online)])
        if against:
            report(f"  the same, with {against}", clean_other, baseline)
            report(f"CPU time: the same, with {against}", cpu[id(clean_other)], cpu[id(baseline)])
        print(f"load average (1 min) {load:.2f} before, {os.getloadavg()[0]:.2f} after; "
              f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--process-only", action="store_true", help="skip the keystroke search figures")
    parser.add_argument("--against", type=Path, help="another checkout's src: its lookup process is timed in turn with this one")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    db = OUT / f"cache-{args.size}.sqlite3"
    if args.rebuild or not db.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        seconds, records = build(db, args.size)
        print(f"built cache of {records} records in {seconds:.1f} s ({records / seconds:.0f} records/s)")
    print(f"cache size on disk: {db.stat().st_size / 2**20:.1f} MiB ({args.size} users + {args.size} contacts)")
    rng = random.Random(5)
    store = CacheStore(db)
    if not args.process_only:
        bench_search(store, keystrokes(store, rng, args.words))
    forms = bench_lookup_in_process(store, rng)
    store.close()
    bench_lookup_process(db, forms, args.runs, args.against.resolve() if args.against else None)


if __name__ == "__main__":
    main()
