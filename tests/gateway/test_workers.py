"""`corpdir gateway` on every core: worker processes share the port, and a number the cache
lacks is asked of the service by the first worker only, for all of them."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from corpdir.gateway.http_workers import _answer, _ask_primary
from corpdir.phone import digits

from .conftest import TOKEN
from .test_httpserver import _free_port, _start_gateway, _wait_healthy


def _running(pid: int) -> bool:
    """Alive (a zombie waiting for whoever reaps orphans has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


two_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="--workers 2 needs two cores (one worker a core at most)")


def _workers(pid: int) -> set[int]:
    return {int(c) for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()}


@two_cores
def test_workers_share_the_port_and_end_with_sigterm(tmp_path):
    """With a TMPDIR too long for the workers' relay socket (sun_path holds 107 bytes): the
    relay goes under /tmp and the gateway serves."""
    port = _free_port()
    long_temp = tmp_path / ("t" * 60) / ("t" * 60)
    long_temp.mkdir(parents=True)
    process, banner = _start_gateway(port, "--token", TOKEN, "--workers", "2",
                                     env={"CORPDIR_DATA_DIR": str(tmp_path / "data"), "TMPDIR": str(long_temp)})
    workers: set[int] = set()
    try:
        assert f"/t/{TOKEN}/" in banner and "2 worker processes" in process.stdout.readline()
        assert _wait_healthy(process, f"http://127.0.0.1:{port}/t/{TOKEN}/health").text == "ok"
        workers = _workers(process.pid)
        assert len(workers) == 2
        for _ in range(20):  # new connections, spread over both workers by the kernel
            assert httpx.get(f"http://127.0.0.1:{port}/t/{TOKEN}/cid.json?number=0399990000", timeout=30).json()["found"] is False
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    assert not any(_running(pid) for pid in workers)  # no worker outlives the gateway


def test_another_worker_gets_the_primarys_answer_from_the_service(gateway, tmp_path):
    gateway.call(gateway.admin.people.create({"loginId": "relayed", "fullname": "中継 次郎", "companyMobileNum": "080-5555-0177"}))
    ask = gateway.app.gateway.lookup.ask_service
    relay = str(tmp_path / "n1.sock")

    async def relayed(forms: list[str]):
        server = await asyncio.start_unix_server(lambda r, w: _answer(r, w, ask), relay)
        async with server:
            return await _ask_primary(relay, forms)

    found = gateway.call(relayed([digits("080-5555-0177"), "+818055550177"]))
    assert found is not None and found.name == "中継 次郎" and found.source == "service"
    nobody = gateway.call(relayed(["0355550199"]))
    assert nobody is None


@two_cores
def test_workers_end_when_the_gateway_is_killed_outright(tmp_path):
    port = _free_port()
    process, _ = _start_gateway(port, "--token", TOKEN, "--workers", "2", env={"CORPDIR_DATA_DIR": str(tmp_path / "data")})
    _wait_healthy(process, f"http://127.0.0.1:{port}/t/{TOKEN}/health")
    workers = _workers(process.pid)
    process.kill()
    process.wait(30)
    for _ in range(3000):  # no worker is left holding the port
        if not any(_running(pid) for pid in workers):
            break
        time.sleep(0.01)
    else:
        raise AssertionError(f"workers {workers} outlived the gateway")


def test_a_worker_count_past_the_cores_is_refused_before_anything_forks(tmp_path):
    """`--workers 99999` forked until the machine stopped; now the flag is named with its rule."""
    import subprocess
    import sys

    for wrong in ("99999", str((os.cpu_count() or 1) + 1), "0", "-1", "two"):
        done = subprocess.run([sys.executable, "-m", "corpdir.cli", "gateway", "--workers", wrong, "--port", "0"],
                              capture_output=True, text=True, timeout=60, env={**os.environ, "CORPDIR_DATA_DIR": str(tmp_path)})
        assert done.returncode == 2, (wrong, done.stdout, done.stderr)
        assert "--workers" in done.stderr and f"from 1 to {os.cpu_count()}" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and not done.stdout
