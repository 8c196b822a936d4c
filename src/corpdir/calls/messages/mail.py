"""A slip as an e-mail, and handing it to the mail server (SMTP, standard library).

Japanese mail as it is written today: the subject and names in UTF-8 encoded words (RFC
2047, by :mod:`email`'s SMTP policy), the body UTF-8; the subject ``[伝言] 山田様より 10:42``
(the caller, the time taken). Every name and number comes through
:func:`corpdir.text.printable`: they are data from the directory or the phone system.

Handing over is one SMTP transaction. The moment after which the server may hold the
mail is ``DATA``: the caller's ``before_data`` is called (the slip marked ``sending`` on
disk) just before it, so a run that dies later leaves a slip known to be maybe delivered,
and everything that fails before it is a clean "not delivered".
"""

from __future__ import annotations

import smtplib
import ssl
import subprocess
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Callable

from corpdir.calls.messages.slips import Outcome, Slip
from corpdir.config.messages import MessagesConfig
from corpdir.phone import for_display
from corpdir.text import printable


class NotHandedOver(Exception):
    """The mail server does not have the mail. ``lasting``: trying again as it is will not
    help (an address or message refused for good, no password): the slip is held."""

    def __init__(self, reason: str, *, lasting: bool = False) -> None:
        super().__init__(reason)
        self.lasting = lasting


class MaybeHandedOver(Exception):
    """The connection broke after the mail was handed over and before the server answered."""


def subject(slip: Slip) -> str:
    caller = printable(slip.caller_name) or for_display(slip.caller_number) or "非通知"
    return f"[伝言] {caller}様より {slip.taken.strftime('%H:%M')}"


def body(slip: Slip) -> str:
    lines = [f"{printable(slip.for_name)} 様", "", f"{printable(slip.caller_name) or 'お名前を伺えなかった方'}様よりお電話がありました。"]
    if slip.outcome is not Outcome.CALLED:
        lines.append(f"{slip.outcome.japanese}。")
    lines.append("")
    if slip.caller_number:
        lines.append(f"電話番号: {for_display(slip.caller_number)}")
    lines.append(f"受付日時: {slip.taken.strftime('%Y-%m-%d %H:%M')}")
    if slip.text:
        lines.append(f"伝言: {printable(slip.text)}")
    lines += ["", "-- ", "受付 (corpdir)", ""]
    return "\n".join(lines)


def compose(slip: Slip, settings: MessagesConfig) -> EmailMessage:
    message = EmailMessage(policy=SMTP)
    message["From"] = formataddr((printable(settings.from_name), settings.from_address))
    message["To"] = formataddr((printable(slip.for_name), slip.for_email))
    message["Subject"] = subject(slip)
    message["Date"] = format_datetime(slip.taken)
    # The same id on every try: a mail client shows a resent slip once.
    message["Message-ID"] = f"<slip-{slip.id}@{settings.from_address.rpartition('@')[2] or 'corpdir.invalid'}>"
    message.set_content(body(slip), charset="utf-8")
    return message


def password(settings: MessagesConfig) -> str:
    """From the file or the command, read at each delivery (a changed password is used at once)."""
    if settings.password_file is not None:
        try:
            return Path(settings.password_file).expanduser().read_text(encoding="utf-8").rstrip("\r\n")
        except OSError as exc:
            raise NotHandedOver(f"cannot read [messages] password_file: {exc.strerror}", lasting=True) from None
    try:
        done = subprocess.run(settings.password_command, capture_output=True, text=True, timeout=settings.timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NotHandedOver(f"[messages] password_command did not run ({type(exc).__name__})", lasting=True) from None
    if done.returncode != 0 or not done.stdout.strip("\r\n"):
        # its output is never shown: it may hold the password
        raise NotHandedOver(f"[messages] password_command printed no password (exit {done.returncode})", lasting=True)
    return done.stdout.rstrip("\r\n")


def hand_over(message: EmailMessage, settings: MessagesConfig, before_data: Callable[[], None],
              tls: ssl.SSLContext | None = None) -> None:
    """One SMTP transaction for ``message`` (blocking: run it in a thread). Raises
    :class:`NotHandedOver` or :class:`MaybeHandedOver`; returns when the server took it."""
    context = tls or ssl.create_default_context()
    try:
        if settings.security == "tls":
            server: smtplib.SMTP = smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=settings.timeout, context=context)
        else:
            server = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=settings.timeout)
    except (OSError, smtplib.SMTPException) as exc:
        raise NotHandedOver(f"cannot reach {settings.smtp_host}:{settings.smtp_port} ({_why(exc)})") from None
    with server:
        try:
            server.ehlo()
            if settings.security == "starttls":
                server.starttls(context=context)
                server.ehlo()
            if settings.username:
                secret = password(settings)
                if not secret.isascii():  # smtplib sends the login as ASCII only
                    raise NotHandedOver("the SMTP password has characters outside ASCII, which the login cannot send",
                                        lasting=True)
                server.login(settings.username, secret)
            refused_sender = server.mail(settings.from_address, ["SMTPUTF8"] if server.has_extn("smtputf8") else [])
            if refused_sender[0] != 250:
                raise smtplib.SMTPSenderRefused(*refused_sender, settings.from_address)
            code, reply = server.rcpt(message["To"].addresses[0].addr_spec)
            if code not in (250, 251):
                raise smtplib.SMTPRecipientsRefused({str(message["To"]): (code, reply)})
        except smtplib.SMTPAuthenticationError:
            raise NotHandedOver("the mail server refused the login (check [messages] username and password)", lasting=True) from None
        except smtplib.SMTPRecipientsRefused as exc:
            code, reply = next(iter(exc.recipients.values()))
            raise NotHandedOver(f"the mail server refused the address ({code} {_text(reply)})", lasting=code >= 500) from None
        except smtplib.SMTPSenderRefused as exc:
            raise NotHandedOver(f"the mail server refused the sender ({exc.smtp_code} {_text(exc.smtp_error)})",
                                lasting=exc.smtp_code >= 500) from None
        except NotHandedOver:
            raise
        except (OSError, smtplib.SMTPException) as exc:
            raise NotHandedOver(f"{settings.smtp_host}: {_why(exc)}") from None
        before_data()
        try:
            code, reply = server.data(message.as_bytes())
        except smtplib.SMTPDataError as exc:  # the server answered: it did not take it
            raise NotHandedOver(f"the mail server refused the message ({exc.smtp_code} {_text(exc.smtp_error)})",
                                lasting=exc.smtp_code >= 500) from None
        except (OSError, smtplib.SMTPException) as exc:
            raise MaybeHandedOver(f"cut off while handing over ({_why(exc)})") from None


def _text(reply: bytes | str) -> str:
    return printable(reply.decode("utf-8", "replace") if isinstance(reply, bytes) else reply)[:120]


def _why(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {_text(exc.smtp_error)}"
    return printable(getattr(exc, "strerror", None) or str(exc) or type(exc).__name__)[:120]
