"""A real SIP server on loopback for tests and benches: kamailio 5.6 (registrar, proxy,
dialog module, busy-lamp events over evapi) from docs/sip/kamailio.cfg, and baresip phones
registered to it. Stop phones before the server (a phone waits ~30 s for its un-REGISTER
otherwise)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from sip_helpers import Baresip, free_port, free_sip_port, terminate

KAMAILIO = shutil.which("kamailio")
CONFIG = Path(__file__).parent.parent / "docs" / "sip" / "kamailio.cfg"
MODULES = Path("/usr/lib/x86_64-linux-gnu/kamailio/modules")
HAS_MODULES = all((MODULES / f"{name}.so").exists() for name in ("evapi", "jansson", "dialog", "jsonrpcs"))


class Kamailio:
    """``kamailio -DD`` on a free UDP port, evapi on a free TCP port, its runtime dir (and
    the JSON-RPC datagram socket ``kamailio_rpc.sock``) in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()  # -P must be absolute: kamailio chdirs to /
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sip_port = free_sip_port()
        self.evapi_port = free_port()
        self.rpc_socket = self.folder / "kamailio_rpc.sock"
        self.start()

    def start(self) -> None:
        self.log = open(self.folder / "kamailio.log", "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [KAMAILIO, "-f", str(CONFIG), "-DD", "-E", "-Y", str(self.folder), "-P", str(self.folder / "kamailio.pid"),
             "-A", f"KPORT={self.sip_port}", "-A", f'EVAPI_ADDR="127.0.0.1:{self.evapi_port}"'],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        while self.process.poll() is None:  # ready once evapi accepts (the last module to listen)
            try:
                socket.create_connection(("127.0.0.1", self.evapi_port), timeout=1).close()
                if self.rpc_socket.exists():
                    return
            except OSError:
                pass
            time.sleep(0.02)
        raise RuntimeError(f"kamailio exited: {(self.folder / 'kamailio.log').read_text(errors='replace')}")

    def phone(self, folder: Path, extension: str, *, auto_answer: bool = False, regint: int = 60) -> Baresip:
        """A baresip phone registered as ``extension`` (registration is asynchronous: wait
        for its lamp, or kamailio's ``registered`` event)."""
        return Baresip(folder, auto_answer=auto_answer,
                       account=f"<sip:{extension}@127.0.0.1:{self.sip_port}>;regint={regint}")

    def stop(self) -> None:
        """SIGTERM to the main process (SIGKILL would orphan its children on the port)."""
        if self.process.returncode is None:
            terminate(self.process)
        self.log.close()
