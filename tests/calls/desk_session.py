"""The desk's call session in a process of its own, as the TUI runs it but without a
screen (the test kills it with SIGKILL or SIGHUP at a chosen step): a baresip feed on
argv[2] that records, the service at argv[1]. Prints 'ready' once the feed is connected,
then runs until killed or sent SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import sys

from corpdir.calls.recorder import queue_path
from corpdir.calls.session import CallSession
from corpdir.config import CallsConfig, ServiceConfig
from corpdir.paths import data_dir
from corpdir.service.calls import CallDesk
from corpdir.service.directory import DirectoryService


async def main(base_url: str, port: int, retry_every: float) -> None:
    settings = ServiceConfig(base_url=base_url, api_key="demo-reception", max_retries=0)
    service = DirectoryService.open(settings)
    connected = asyncio.Event()

    class Watcher:
        def rings_changed(self, rings: object) -> None:
            pass

        def feeds_changed(self) -> None:
            if session.hub is not None and session.hub.status["soft phone"].state == "connected":
                connected.set()

    calls = CallsConfig(feeds=[{"kind": "baresip", "name": "soft phone", "port": port}], ring_socket=False)
    session = CallSession(CallDesk(service), calls, Watcher(), queue=queue_path(settings.profile().cache_path(), data_dir()))
    await session.start()
    session.recorder.retry_every = retry_every  # type: ignore[union-attr]
    await connected.wait()
    print("ready", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await session.stop()
        await service.close()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 15.0))
