"""`corpdir server` on a port another program holds says so, before any 'Serving' line."""

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
