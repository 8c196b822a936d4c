"""`corpdir server` on a port another program holds says so, before any 'Serving' line; `corpdir gateway`
on one, or on an address that is not this machine's, says so too, and `corpdir web`; a
server whose --data it cannot use says so."""

from __future__ import annotations

import socket
import subprocess
import sys


def test_a_taken_port_is_named_and_nothing_is_served():
    holder = socket.create_server(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    try:
        result = subprocess.run([sys.executable, "-m", "corpdir.cli", "server", "--demo", "--port", str(port)],
                                capture_output=True, text=True, timeout=120)
    finally:
        holder.close()
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}: the port is taken" in result.stderr
    assert "Serving" not in result.stdout and "Traceback" not in result.stderr


def test_the_gateway_on_a_taken_port_or_a_foreign_address_says_so_with_status_2():
    """It printed a traceback and exited 1, where its help promises 2 for a taken port."""
    holder = socket.create_server(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    dead = ["--base-url", "http://127.0.0.1:9/v1"]  # no demo to generate: the listening fails first
    try:
        taken = subprocess.run([sys.executable, "-m", "corpdir.cli", "gateway", "--port", str(port), *dead],
                               capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    finally:
        holder.close()
    foreign = subprocess.run([sys.executable, "-m", "corpdir.cli", "gateway", "--host", "192.0.2.1", "--port", "0", *dead],
                             capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert (taken.returncode, foreign.returncode) == (2, 2)
    assert f"corpdir gateway: cannot listen on 127.0.0.1:{port}: the port is taken" in taken.stderr, taken.stderr
    assert "corpdir gateway: cannot listen on 192.0.2.1:0: not an address of this machine" in foreign.stderr, foreign.stderr
    assert "Traceback" not in taken.stderr + foreign.stderr


def test_the_browser_server_on_a_taken_port_says_so_with_status_2():
    holder = socket.create_server(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    try:
        result = subprocess.run([sys.executable, "-m", "corpdir.cli", "web", "--port", str(port)],
                                capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    finally:
        holder.close()
    assert result.returncode == 2, result.stderr
    assert f"corpdir web: cannot listen on 127.0.0.1:{port}: the port is taken" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_server_with_a_data_folder_it_cannot_use_says_so_with_status_2(tmp_path):
    """--data naming a file printed a NotADirectoryError traceback and exited 1."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "corpdir.cli", "server", "--data", str(a_file), "--port", "0"],
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert f"corpdir server: cannot keep the directory in {a_file}: Not a directory" in result.stderr
    assert "Traceback" not in result.stderr and "Serving" not in result.stdout
