"""A pre-auth flood does not lock real users out (sshd's MaxStartups 10:30:100, per-source
shares, PerSourcePenalties): 200 connections from 127.0.0.2 that send a version line and
hold, reconnecting whenever they are dropped, while the real OpenSSH client logs in from
127.0.0.1 (all of 127.0.0.0/8 is loopback on Linux) to a real `corpdir ssh-server`
process with its default limits. Before, every slot was the flood's and 8 logins of 8
failed; bench/ssh_flood_bench.py measures how long a login takes meanwhile."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from ssh_helpers import PreAuthFlood, openssh_login, ssh_server_process, until

pytestmark = pytest.mark.skipif(not shutil.which("ssh"), reason="the OpenSSH client is needed")


@pytest.fixture
def identity(tmp_path, client_key):
    path = tmp_path / "id_desk"
    client_key.write_private_key(path)
    path.chmod(0o600)
    return path


async def drain(stream, lines: list[bytes]) -> None:
    async for line in stream:
        lines.append(line)


async def test_a_real_user_logs_in_ten_times_of_ten_through_a_reconnecting_flood(tmp_path, client_key, identity):
    process, port, stderr = await ssh_server_process(tmp_path, client_key)
    log: list[bytes] = []
    reading = asyncio.create_task(drain(stderr, log))
    flood = PreAuthFlood(port, "127.0.0.2", 200).start()
    try:
        assert await until(lambda: flood.opened >= 200 and any(b"its share" in line for line in log), 60)
        logins = [await openssh_login(port, identity, timeout=60) for _ in range(10)]
        assert logins == [True] * 10
        assert flood.opened > 200  # the flood was dropped and came back meanwhile
    finally:
        await flood.stop()
        process.terminate()
        await process.wait()
        reading.cancel()


async def test_a_connection_that_never_exchanges_keys_is_dropped_and_its_address_refused(tmp_path, client_key, identity):
    process, port, stderr = await ssh_server_process(tmp_path, client_key, "--preauth-timeout", "0.5")
    log: list[bytes] = []
    reading = asyncio.create_task(drain(stderr, log))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.3", 0))
        writer.write(b"SSH-2.0-OpenSSH_9.6 idle\r\n")
        while await reader.read(4096):  # returns once the server has closed it
            pass
        writer.close()
        assert await until(lambda: any(b"no login attempt within 0.5s" in line for line in log))
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.3", 0))
        assert await reader.read() in (b"", b"SSH-2.0-corpdir\r\n")  # refused at once for a while
        writer.close()
        assert await until(lambda: any(b"its address is refused" in line for line in log))
        assert await openssh_login(port, identity)  # another address is not
    finally:
        process.terminate()
        await process.wait()
        reading.cancel()
