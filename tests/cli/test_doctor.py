"""`corpdir doctor` tells what the desk's telephone left undone, from local files only
(the service may be away): calls waiting in the queue, records the service refused,
calls of unknown outcome, and where the log is; and that log file itself."""

from __future__ import annotations

import logging
import stat
from datetime import datetime, timezone

from corpdir.calls.events import CallEvent, CallState
from corpdir.calls.logfile import MAX_BYTES, log_path, open_log
from corpdir.calls.recorder import CallRecorder, queue_path
from corpdir.cli import main
from corpdir.config import load_settings
from corpdir.paths import data_dir, state_dir
from corpdir.service.calls import CallDesk
from corpdir.service.directory import DirectoryService
from service_fixtures import make_service
from sip_helpers import free_port

RANG = datetime(2026, 11, 26, 0, 30, tzinfo=timezone.utc)


def ended(call_id: str, number: str, answered: bool | None = False) -> CallEvent:
    return CallEvent("soft phone", call_id, CallState.ENDED, number, answered=answered, duration=0, rang_at=RANG,
                     records=True)


async def test_doctor_shows_the_queue_the_refused_records_and_the_log(monkeypatch, capsys):
    monkeypatch.setenv("CORPDIR_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")  # nothing listens: away
    monkeypatch.setenv("CORPDIR_API_KEY", "demo-reception")
    settings = load_settings().service
    queue = queue_path(settings.profile().cache_path(), data_dir())
    assert main(["doctor"]) == 0
    assert "none yet" in capsys.readouterr().out

    reachable = make_service()  # the service as it was when these calls ended
    try:
        recorder = CallRecorder(CallDesk(reachable), queue)
        recorder.record(ended("c1", "9" * 60))  # the service refuses it (fromNum: at most 50)
        recorder.record(ended("c2", "0312345699", answered=None))  # the feed joined after it began
        await recorder.flush()
    finally:
        await reachable.close()
    away = DirectoryService.open(settings)
    try:
        recorder = CallRecorder(CallDesk(away), queue)
        recorder.record(ended("c3", "0312345698"))
        assert await recorder.flush() == 0
    finally:
        await away.close()

    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert f"log: {log_path(state_dir(), settings.profile().cache_path())}" in out
    assert "1 call waiting to be recorded, 0 messages waiting to be sent" in out
    assert "waiting: 0312345698, rang" in out and "1 attempt" in out
    assert "refused by the service: 1" in out and "9" * 60 in out and "fromNum: at most 50 characters" in out
    assert "outcome unknown, not recorded: 1" in out and "0312345699" in out


def test_the_log_is_private_rotated_and_keeps_the_key_out(tmp_path):
    path = tmp_path / "logs" / "profile.log"
    level = logging.getLogger("corpdir").level  # open_log lowers it to INFO: later tests log DEBUG
    handler = open_log(path, ("sk-secret-key-123",))
    log = logging.getLogger("corpdir.calls")
    try:
        log.error("call soft phone:1 refused by the service, dropped: echoed Authorization: Bearer sk-secret-key-123")
        handler.flush()
        text = path.read_text(encoding="utf-8")
        assert "refused by the service" in text and "Bearer [redacted]" in text and "sk-secret-key-123" not in text
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        for _ in range(MAX_BYTES // 100 + 10):
            log.info("x" * 100)
        handler.flush()
        rotated = path.with_name("profile.log.1")
        assert rotated.exists() and stat.S_IMODE(rotated.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        logging.getLogger("corpdir").removeHandler(handler)
        logging.getLogger("corpdir").setLevel(level)
        handler.close()
