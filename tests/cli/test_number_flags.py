"""A number flag out of range is a bad command line (exit 2, the flag and the rule named),
never a traceback from bind() or the demo generator."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpdir.cli import parse_args


@pytest.mark.parametrize(("argv", "said"), [
    (["server", "--port", "99999"], "argument --port: '99999' is not a whole number from 0 to 65535"),
    (["server", "--port", "-1"], "argument --port: '-1' is not a whole number from 0 to 65535"),
    (["web", "--port", "70000"], "argument --port: '70000' is not a whole number from 0 to 65535"),
    (["web", "--max-sessions", "0"], "argument --max-sessions: '0' is not a whole number of 1 or more"),
    (["server", "--demo", "--size", "5"], "argument --size: '5' is not a whole number of 10 or more"),
    (["export", "users", "--limit", "-1"], "argument --limit: '-1' is not a whole number of 1 or more"),
    (["export", "users", "--division", "99999999999999999999999"], "argument --division: '99999999999999999999999' is not"),
    (["gateway", "--workers", "99999"], f"argument --workers: '99999' is not a whole number from 1 to {os.cpu_count()}"),
])
def test_a_number_out_of_range_is_refused_by_name(argv, said, capsys):
    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    assert exited.value.code == 2 and said in capsys.readouterr().err


def test_the_ports_and_sizes_that_work_are_taken():
    assert parse_args(["server", "--port", "0", "--size", "10"]).port == 0
    assert parse_args(["web", "--port", "65535"]).port == 65535


def test_server_with_a_port_out_of_range_says_so_without_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "server", "--port", "99999", "--data", str(tmp_path)],
                          capture_output=True, text=True, env=os.environ.copy(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2 and "--port" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_smallest_size_taken_is_the_generators_smallest():
    from corpdir.server import DEMO_MIN_SIZE
    from corpdir.server.demo import generate_tenant

    assert generate_tenant(size=DEMO_MIN_SIZE, seed=1)
    with pytest.raises(ValueError):
        generate_tenant(size=DEMO_MIN_SIZE - 1, seed=1)
