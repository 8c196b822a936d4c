"""Logging in through a pre-auth flood: figures, not a timed test.

    python bench/ssh_flood_bench.py [--logins 20] [--flood 200]

Starts a `corpdir ssh-server` process (default limits) on 127.0.0.1, and times the real
OpenSSH client (`ssh -N`, an authorized ed25519 key) from start to "Authenticated",
first alone, then while ``--flood`` connections from 127.0.0.2 send a version line and
hold, reconnecting at once whenever the server drops them. Prints median and p95 of
each, how many logins succeeded, and how many connections the flood opened.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from _stats import report  # noqa: E402
from ssh_helpers import PreAuthFlood, openssh_login, ssh_server_process  # noqa: E402


async def logins(port: int, identity: Path, count: int) -> tuple[list[float], int]:
    seconds, ok = [], 0
    for _ in range(count):
        began = time.perf_counter()
        if await openssh_login(port, identity, timeout=60):
            ok += 1
            seconds.append(time.perf_counter() - began)
    return seconds, ok


async def main(count: int, flood_size: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        key = asyncssh.generate_private_key("ssh-ed25519")
        identity = Path(folder) / "id_desk"
        key.write_private_key(identity)
        identity.chmod(0o600)
        process, port, stderr = await ssh_server_process(Path(folder), key)
        draining = asyncio.create_task(stderr.read())
        try:
            alone, ok = await logins(port, identity, count)
            report(f"login alone ({ok}/{count} ok)", alone)
            flood = PreAuthFlood(port, "127.0.0.2", flood_size).start()
            while flood.opened < flood_size:
                await asyncio.sleep(0.05)
            flooded, ok = await logins(port, identity, count)
            report(f"login during a {flood_size}-connection flood ({ok}/{count} ok)", flooded)
            print(f"flood connections opened: {flood.opened}")
            await flood.stop()
        finally:
            process.terminate()
            await process.wait()
            draining.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=20)
    parser.add_argument("--flood", type=int, default=200)
    options = parser.parse_args()
    asyncio.run(main(options.logins, options.flood))
