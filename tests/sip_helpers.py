"""Real SIP parts for tests and benches: a baresip soft phone with ctrl_tcp on 127.0.0.1
(no sound hardware: a sine source, output to /dev/null) and SIPp as the other party."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from pathlib import Path

BARESIP = shutil.which("baresip")
SIPP = shutil.which("sipp")
MODULES = Path("/usr/lib/baresip/modules")
SCENARIOS = Path(__file__).parent / "calls" / "sipp"


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def free_sip_port() -> int:
    """A port free for UDP and TCP, and the next one for TCP (baresip's SIP/TLS listens there)."""
    while True:
        port = free_port(socket.SOCK_DGRAM)
        try:
            with socket.socket() as tcp, socket.socket() as tls:
                tcp.bind(("127.0.0.1", port))
                tls.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue


class Baresip:
    """``baresip -f <dir>`` with a desk account, SIP on ``sip_port``, ctrl_tcp on ``ctrl_port``;
    ``auto_answer``: the account answers by itself (``answermode=auto``). ``account``: an
    accounts line of its own (a phone registered to a SIP server) instead of the desk's
    serverless line; such a phone keeps to 127.0.0.1 in its SDP too."""

    def __init__(self, folder: Path, *, auto_answer: bool = False, account: str | None = None) -> None:
        self.folder = folder
        self.sip_port = free_sip_port()
        self.ctrl_port = free_port()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config").write_text("\n".join([
            "poll_method epoll",
            f"sip_listen 127.0.0.1:{self.sip_port}",
            "audio_player aufile,/dev/null", "audio_alert aufile,/dev/null", "audio_source ausine,440",
            "ausrc_srate 48000", "auplay_srate 48000", "ausrc_channels 2",  # ausine: 48 kHz stereo only
            f"module_path {MODULES}",
            "module g711.so", "module ausine.so", "module aufile.so",
            "module_app account.so", "module_app menu.so", "module_app ctrl_tcp.so",
            f"ctrl_tcp_listen 127.0.0.1:{self.ctrl_port}",
            "call_max_calls 32",  # baresip's 4 answers a fifth call 486 (docs/calls.md)
            *(["net_interface 127.0.0.1"] if account else []),
            ""]))
        line = account or "<sip:desk@127.0.0.1>;regint=0"
        (folder / "accounts").write_text(line + (";answermode=auto" if auto_answer else "") + "\n")
        self.start()

    def start(self) -> None:
        """Started (again, after :meth:`stop`: the same ports, as a restarted soft phone)."""
        self.log = open(self.folder / "baresip.log", "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen([BARESIP, "-f", str(self.folder)], stdin=subprocess.DEVNULL, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        self._wait_listening()

    def _wait_listening(self) -> None:
        while self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.ctrl_port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"baresip exited: {(self.folder / 'baresip.log').read_text(errors='replace')}")

    def stop(self) -> None:
        if self.process.returncode is not None:
            return
        terminate(self.process)
        self.log.close()


def terminate(process: subprocess.Popen) -> None:
    """SIGTERM, and SIGKILL if it has not ended 10 s later."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


TALK_SECONDS = 2  # the caller's scenario: answered, it talks this long, then hangs up


def caller_file(folder: Path, name: str, number: str) -> Path:
    path = folder / "caller.csv"
    path.write_text(f"SEQUENTIAL\n{name};{number}\n", encoding="utf-8")
    return path


async def sipp_call(baresip: Baresip, folder: Path, name: str, number: str) -> asyncio.subprocess.Process:
    """SIPp calls the desk as ``name`` <sip:number@...>; the message log goes to folder/messages.log."""
    return await asyncio.create_subprocess_exec(
        SIPP, "-sf", str(SCENARIOS / "caller.xml"), "-inf", str(caller_file(folder, name, number)),
        f"127.0.0.1:{baresip.sip_port}", "-s", "desk", "-m", "1", "-i", "127.0.0.1", "-p", str(free_sip_port()),
        "-nostdin", "-trace_msg", "-message_file", str(folder / "messages.log"), "-timeout", "60",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL, cwd=folder)


async def sipp_answering(folder: Path) -> tuple[asyncio.subprocess.Process, int]:
    """SIPp as the called party (its built-in uas scenario) on a free port."""
    port = free_sip_port()
    process = await asyncio.create_subprocess_exec(
        SIPP, "-sn", "uas", "-i", "127.0.0.1", "-p", str(port), "-m", "1", "-nostdin", "-trace_msg",
        "-message_file", str(folder / "uas.log"), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        cwd=folder)
    return process, port
