"""A real OpenLDAP slapd for tests: a temporary slapd.conf (the one docs/gateway.md shows),
an mdb database in a temporary folder, a free loopback port, stopped afterwards."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

SLAPD = shutil.which("slapd") or ("/usr/sbin/slapd" if Path("/usr/sbin/slapd").exists() else None)
LDAPSEARCH = shutil.which("ldapsearch")
SUFFIX, ROOT_DN, ROOT_PW = "dc=example,dc=com", "cn=admin,dc=example,dc=com", "secret"
BASE_DN = f"ou=phonebook,{SUFFIX}"

CONFIG = """\
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile {folder}/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
maxsize 1073741824
suffix "{suffix}"
rootdn "{root_dn}"
rootpw {root_pw}
directory {folder}/db
index objectClass eq
index uid eq
index telephoneNumber,mobile eq
index cn,sn,displayName eq,sub
"""


class Slapd:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        (folder / "db").mkdir(parents=True)
        (folder / "slapd.conf").write_text(CONFIG.format(folder=folder, suffix=SUFFIX, root_dn=ROOT_DN, root_pw=ROOT_PW))
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"ldap://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([SLAPD, "-d", "0", "-f", str(folder / "slapd.conf"), "-h", self.url + "/"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.02)
        if self.process.poll() is not None:
            raise RuntimeError(f"slapd did not start: {self.process.stderr.read().decode(errors='replace')}")
        self.ldapadd(f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n")

    def ldapadd(self, ldif: str) -> None:
        subprocess.run(["ldapadd", "-x", "-H", self.url, "-D", ROOT_DN, "-w", ROOT_PW], input=ldif.encode(),
                       check=True, capture_output=True)

    def search(self, filter_: str, *attrs: str, base: str = BASE_DN) -> dict[str, dict[str, list[str]]]:
        """ldapsearch, as a phone's query; the LDIF it prints parsed by ldap3's reader."""
        out = subprocess.run([LDAPSEARCH, "-x", "-LLL", "-o", "ldif-wrap=no", "-H", self.url, "-b", base, filter_, *attrs],
                             check=True, capture_output=True).stdout
        return parse_ldif(out)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def parse_ldif(data: bytes) -> dict[str, dict[str, list[str]]]:
    import base64

    entries: dict[str, dict[str, list[str]]] = {}
    for record in data.decode().strip().split("\n\n"):
        if not record.strip():
            continue
        attrs: dict[str, list[str]] = {}
        for line in record.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            value = base64.b64decode(value[2:]).decode() if value.startswith(": ") else value[1:]
            attrs.setdefault(name, []).append(value)
        entries[attrs.pop("dn")[0]] = attrs
    return entries
