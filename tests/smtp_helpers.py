"""A real SMTP server on 127.0.0.1 for the message tests: aiosmtpd, with STARTTLS (a
certificate made for the test, trusted by the client's context only) and a login, as a
company's submission port (587) asks for. It keeps what it received, can be stopped and
started again on the same port (an outage), and can hold a message in DATA until told
(a server that takes the mail and then goes away before answering)."""

from __future__ import annotations

import asyncio
import datetime
import email
import email.policy
import ipaddress
import ssl
import threading
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from sip_helpers import free_port

USER, PASSWORD = "reception", "pass word&%+"  # a space and signs: read as written


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (its own CA), and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    today = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(today - datetime.timedelta(days=1))
            .not_valid_after(today + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "smtp.crt", folder / "smtp.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@dataclass
class Received:
    envelope_to: list[str]
    message: email.message.EmailMessage


@dataclass
class MailServer:
    folder: Path
    port: int = field(default_factory=free_port)
    received: list[Received] = field(default_factory=list)
    hold: threading.Event = field(default_factory=threading.Event)  # set: a message waits in DATA until cleared
    in_data: threading.Event = field(default_factory=threading.Event)  # a message was taken in DATA
    _controller: Controller | None = None

    def __post_init__(self) -> None:
        self.cert, self.key = make_certificate(self.folder)
        self.arrived = threading.Condition()

    @property
    def client_tls(self) -> ssl.SSLContext:
        """What the desk's side trusts: this server's certificate (its CA)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def start(self) -> MailServer:
        server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_tls.load_cert_chain(self.cert, self.key)
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, tls_context=server_tls,
                                      require_starttls=True, authenticator=self._authenticate, auth_require_tls=True)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def _authenticate(self, server, session, envelope, mechanism, auth_data):  # noqa: ANN001 - aiosmtpd's signature
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == USER.encode() and auth_data.password == PASSWORD.encode()
        return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535 itself

    async def handle_DATA(self, server, session, envelope):  # noqa: ANN001, N802 - aiosmtpd's handler name
        parsed = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        with self.arrived:  # kept first: a server that stored the mail and answers late (or never)
            self.received.append(Received(list(envelope.rcpt_tos), parsed))
            self.arrived.notify_all()
        self.in_data.set()
        while self.hold.is_set():  # the answer waits for the test's go
            await asyncio.sleep(0.01)
        return "250 Message accepted"

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Received]:
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} mails arrived, waited for {count}")
            return list(self.received)
