"""Load generators for bench/gateway_bench.py that are not the bottleneck: wrk (C, epoll)
for HTTP, bench/ldap_load.c (C, libldap, a thread a connection) for LDAP, and its twin for
HTTP, bench/http_load.c (the same threads, clock and percentiles), so an HTTP server and
slapd can also be timed by the same kind of client; all closed loop over keep-alive
connections opened before the clock starts; nginx serving a 13-byte file as the machine's
HTTP floor.

Each run reports the generator's own CPU (from wait4 on the child: user + system) beside
the server's (from /proc, the server process and its children: the gateway's workers,
nginx's), so a reader can see the generator had headroom and what a request cost the server.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
TICK = os.sysconf("SC_CLK_TCK")
FLOOR_BODY = b"hello world!\n"  # 13 bytes


@dataclass
class Run:
    requests: int
    seconds: float
    p50_us: float
    p99_us: float
    missed: int  # not found (LDAP no entry, HTTP non-2xx)
    errors: int
    generator_cpu: float  # seconds
    server_cpu: float  # seconds


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (the gateway's workers, nginx's) as /proc has them now."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            todo += [int(c) for task in Path(f"/proc/{p}/task").iterdir() for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
        found.append(p)
    return found


def _proc(pid: int, name: str) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text()
    except FileNotFoundError:  # ended since: counts nothing
        return ""


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its children."""
    fields = [_proc(p, "stat").rsplit(")", 1)[-1].split() for p in _tree(pid)]
    return sum(int(f[11]) + int(f[12]) for f in fields if len(f) > 12) / TICK


def process_tree_rss(pid: int) -> float:
    """MiB resident in ``pid`` and its children (pages a worker shares with another count in each)."""
    return sum(int(line.split()[1]) for p in _tree(pid) for line in _proc(p, "status").splitlines()
               if line.startswith("VmRSS:")) / 1024


def _measured(command: list[str], server_pid: int) -> tuple[str, float, float]:
    """(stdout, the generator's CPU seconds, the server's CPU seconds over the run)."""
    before = process_tree_cpu(server_pid)
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = child.stdout.read(), child.stderr.read()  # type: ignore[union-attr]  # both short
    _, status, usage = os.wait4(child.pid, 0)  # not Popen.wait(): wait4 gives the child's own rusage
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {err.strip()}")
    return out, usage.ru_utime + usage.ru_stime, process_tree_cpu(server_pid) - before


def _figures(out: str) -> dict[str, float]:
    line = next(line for line in out.splitlines() if line.startswith("requests="))
    return {k: float(v) for k, v in (pair.split("=") for pair in line.split())}


# -- wrk ----------------------------------------------------------------------------------------
WRK_SCRIPT = """\
local paths = {%s}
local prepared = {}
local i = 0
init = function(args)
  for k, p in ipairs(paths) do prepared[k] = wrk.format("GET", p) end
end
request = function()
  i = i %% #prepared + 1
  return prepared[i]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("requests=%%d seconds=%%.3f p50_us=%%d p99_us=%%d missed=%%d errors=%%d\\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
"""


def wrk_script(folder: Path, name: str, paths: list[str]) -> Path:
    """A wrk script asking ``paths`` in turn, each request formatted once before the clock."""
    path = folder / f"{name}.lua"
    path.write_text(WRK_SCRIPT % ",".join(f'"{p}"' for p in paths))
    return path


def wrk(url: str, script: Path, connections: int, seconds: float, server_pid: int) -> Run:
    if seconds < 1 or seconds != int(seconds):
        raise SystemExit(f"wrk runs whole seconds, 1 or more (not {seconds:g})")
    command = [shutil.which("wrk") or "/usr/bin/wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "5s",
               "-s", str(script), url]
    out, generator, server = _measured(command, server_pid)
    f = _figures(out)
    return Run(int(f["requests"]), f["seconds"], f["p50_us"], f["p99_us"], int(f["missed"]), int(f["errors"]),
               generator, server)


# -- the C clients: bench/ldap_load.c and bench/http_load.c ---------------------------------------
def build_client(out: Path, name: str) -> Path:
    """bench/NAME.c compiled into ``out`` when it or bench/closed_loop.h is newer:
    ``ldap_load`` against libldap (Debian: libldap-dev), ``http_load`` against libc alone."""
    binary, source = out / name, HERE / f"{name}.c"
    libraries = ["-lldap", "-llber"] if name == "ldap_load" else []
    newest = max(source.stat().st_mtime, (HERE / "closed_loop.h").stat().st_mtime)
    if not binary.exists() or binary.stat().st_mtime < newest:
        if libraries and not Path("/usr/include/ldap.h").exists():
            raise SystemExit("bench/ldap_load.c needs libldap's headers: apt-get install libldap-dev")
        subprocess.run([shutil.which("cc") or "cc", "-O2", "-o", str(binary), str(source), *libraries, "-lpthread"],
                       check=True)
    return binary


def ldap_load(binary: Path, uri: str, base: str, numbers: Path, connections: int, seconds: float, server_pid: int) -> Run:
    out, generator, server = _measured([str(binary), uri, base, f"{seconds:g}", str(connections), str(numbers)], server_pid)
    f = _figures(out)
    return Run(int(f["requests"]), f["seconds"], f["p50_us"], f["p99_us"], int(f["notfound"]), int(f["errors"]),
               generator, server)


def http_load(binary: Path, port: int, paths: Path, connections: int, seconds: float, server_pid: int) -> Run:
    """``paths`` (a file, one a line) asked of 127.0.0.1:``port`` by bench/http_load.c."""
    out, generator, server = _measured([str(binary), "127.0.0.1", str(port), f"{seconds:g}", str(connections), str(paths)],
                                       server_pid)
    f = _figures(out)
    return Run(int(f["requests"]), f["seconds"], f["p50_us"], f["p99_us"], int(f["missed"]), int(f["errors"]),
               generator, server)


# -- nginx, the HTTP floor ----------------------------------------------------------------------
NGINX_CONF = """\
worker_processes {workers};
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 60;
  client_body_temp_path {folder}/tmp; proxy_temp_path {folder}/tmp; fastcgi_temp_path {folder}/tmp;
  uwsgi_temp_path {folder}/tmp; scgi_temp_path {folder}/tmp;
  server {{ listen 127.0.0.1:{port}; root {folder}/www; }}
}}
"""


def start_nginx(folder: Path, port: int, workers: int) -> subprocess.Popen:
    """nginx serving ``/floor.txt`` (13 bytes), one worker a core as the gateway runs.
    ``folder``: one its workers (user nobody) can read, not a 0700 temporary folder."""
    (folder / "www").mkdir(parents=True, exist_ok=True)
    (folder / "tmp").mkdir(exist_ok=True)
    (folder / "www" / "floor.txt").write_bytes(FLOOR_BODY)
    conf = folder / "nginx.conf"
    conf.write_text(NGINX_CONF.format(folder=folder, port=port, workers=workers))
    return subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(conf), "-p", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def settle(seconds: float = 0.2) -> None:
    """A pause between runs: the previous run's connections close before the next opens."""
    time.sleep(seconds)
