"""A desk's recorder in a process of its own (the test kills it with SIGKILL): it queues
one finished call for the service at argv[1] and tries to send it; prints what happened,
then waits to be killed, or exits once the queue is empty when argv[2] is 'until-sent'."""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime, timedelta, timezone

from corpdir.calls.events import CallEvent, CallState
from corpdir.calls.recorder import CallRecorder, queue_path
from corpdir.config import ServiceConfig
from corpdir.paths import data_dir
from corpdir.service.calls import CallDesk
from corpdir.service.directory import DirectoryService

RANG_AT = datetime(2026, 11, 20, 9, 30, tzinfo=timezone.utc)


async def main(base_url: str, mode: str) -> None:
    settings = ServiceConfig(base_url=base_url, api_key="demo-reception", max_retries=0)
    service = DirectoryService.open(settings)
    recorder = CallRecorder(CallDesk(service), queue_path(settings.profile().cache_path(), data_dir()))
    if mode == "record":
        recorder.record(CallEvent("soft phone", "call-1", CallState.ENDED, "0312340000", at=RANG_AT + timedelta(seconds=75),
                                  answered=True, duration=61, rang_at=RANG_AT, records=True))
    sent = await recorder.flush()
    print(f"sent {sent}, queued {len(recorder.queued)}", flush=True)
    if mode == "record":
        await asyncio.Event().wait()  # until killed
    await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
