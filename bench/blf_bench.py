"""Busy-lamp latency on a real SIP network on loopback: figures, not timed tests.

    python bench/blf_bench.py [--calls 30]

kamailio 5.6 (docs/sip/kamailio.cfg) and two baresip phones, 201 and 202. Each round: 201
dials 202 (-> 202 ringing), 202 answers (-> on the phone), 202 hangs up (-> free). Latency:
from the ctrl_tcp command sent to the phone until corpdir's Presence tells the lamp (the
evapi client, the board, the watched set; no screen). Baseline in the same run: the same
command to the same event read by a bare evapi socket, no corpdir (the "ringing" lamp lights
at the INVITE kamailio forwards, before the 180 the bare socket waits for: its ratio is
below 1). Goal: each within 1 s.
The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from _stats import report  # noqa: E402

from corpdir.calls.feeds.baresip import send_command  # noqa: E402
from corpdir.calls.netstring import Decoder  # noqa: E402
from corpdir.calls.presence.lamps import Lamp  # noqa: E402
from corpdir.calls.presence.watch import Presence  # noqa: E402
from corpdir.config.presence import KamailioPresenceConfig  # noqa: E402
from kamailio_helpers import Kamailio  # noqa: E402
from lamp_helpers import LampWatcher  # noqa: E402

STEPS = (("ringing", Lamp.RINGING), ("answered", Lamp.BUSY), ("hangup", Lamp.FREE))


async def bare_event(reader: asyncio.StreamReader, decoder: Decoder, kind: str) -> float:
    """When a bare evapi client reads the next event of ``kind``."""
    while True:
        for payload in decoder.feed(await reader.read(65536)):
            if f'"event":"{kind}"' in payload.decode():
                return time.perf_counter()


async def main(calls: int) -> None:
    print(f"load average before: {os.getloadavg()}")
    folder = Path(tempfile.mkdtemp(prefix="blf-bench-"))
    server = Kamailio(folder / "kamailio")
    alice, bob = server.phone(folder / "201", "201"), server.phone(folder / "202", "202")
    watcher = LampWatcher()
    config = KamailioPresenceConfig(kind="kamailio", evapi=f"127.0.0.1:{server.evapi_port}",
                                    rpc_socket=str(server.rpc_socket))
    watcher.presence = presence = Presence(config, watcher.changed)
    presence.watch(["201", "202"])
    presence.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.evapi_port)
    decoder = Decoder()
    ours: dict[str, list[float]] = {kind: [] for kind, _ in STEPS}
    bare: dict[str, list[float]] = {kind: [] for kind, _ in STEPS}
    commands = ((alice, "dial", f"sip:202@127.0.0.1:{server.sip_port}"), (bob, "accept", ""), (bob, "hangup", ""))
    try:
        await watcher.until({"201": Lamp.FREE, "202": Lamp.FREE})
        for _ in range(calls):
            for (kind, lamp), (phone, command, params) in zip(STEPS, commands):
                seen = asyncio.create_task(bare_event(reader, decoder, kind))
                told = asyncio.create_task(watcher.until({"202": lamp}))
                sent = time.perf_counter()
                await send_command("127.0.0.1", phone.ctrl_port, command, params)
                ours[kind].append(await told - sent)
                bare[kind].append(await seen - sent)
            await watcher.until({"201": Lamp.FREE, "202": Lamp.FREE})
    finally:
        writer.close()
        await presence.stop()
        alice.stop()
        bob.stop()
        server.stop()
    for kind, lamp in STEPS:
        report(f"command -> lamp '{lamp.value}' (corpdir)", ours[kind], bare[kind])
        report(f"command -> evapi '{kind}' (bare socket)", bare[kind])
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=30)
    asyncio.run(main(parser.parse_args().calls))
