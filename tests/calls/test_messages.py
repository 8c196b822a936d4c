"""Messages that reach the person: a slip taken at the desk is e-mailed over a real SMTP
server on loopback (aiosmtpd with STARTTLS and a login), with a Japanese subject and body
as a mail client shows them, kept while the server is down and delivered once when it is
back, also across a ``kill -9`` of the desk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from corpdir.calls.messages.courier import MessageCourier
from corpdir.calls.messages.slips import Outcome, SlipBook, SlipState, new_slip, record_note
from corpdir.config.messages import MessagesConfig
from smtp_helpers import PASSWORD, USER, MailServer

HERE = Path(__file__).parent


@pytest.fixture
def mail_server(tmp_path):
    server = MailServer(tmp_path).start()
    yield server
    server.stop()


def settings_for(server: MailServer, folder: Path, **changes) -> MessagesConfig:
    password = folder / "smtp-password"
    password.write_text(PASSWORD + "\n", encoding="utf-8")
    password.chmod(0o600)
    values = {"smtp_host": "127.0.0.1", "smtp_port": server.port, "username": USER, "password_file": str(password),
              "from_address": "reception@example.co.jp", "retry_every": 3600, **changes}
    return MessagesConfig(**values)


def a_slip(**changes):
    values = {"for_name": "山田 太郎", "for_email": "yamada@example.co.jp", "caller_name": "青木 明美",
              "caller_number": "０９０－１２３４－５６７８", "outcome": Outcome.CALL_BACK, "text": "見積の件で至急"}
    return new_slip(**{**values, **changes})


async def test_the_person_gets_the_mail_in_japanese(mail_server, tmp_path):
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings_for(mail_server, tmp_path), tls=mail_server.client_tls)
    slip = await courier.take(a_slip())

    assert slip.state is SlipState.SENT and slip.status.startswith("e-mailed")
    [mail] = mail_server.wait_for(1)
    assert mail.envelope_to == ["yamada@example.co.jp"]
    message = mail.message
    raw_subject = message.get_all("Subject", [])[0]
    assert message["Subject"] == f"[伝言] 青木 明美様より {slip.taken.strftime('%H:%M')}"
    assert message["To"].addresses[0].display_name == "山田 太郎"
    text = message.get_body().get_content()
    assert message.get_body().get_content_charset() == "utf-8"
    assert "山田 太郎 様" in text and "折り返しお電話ください" in text and "見積の件で至急" in text
    assert "090-1234-5678" in text  # folded from full width and shown as the desk shows numbers
    # RFC 2047 on the wire: the raw header is ASCII encoded words, not 8-bit bytes
    wire = message.as_bytes()
    assert b"Subject: =?utf-8?" in wire and raw_subject.isascii() is False


async def test_a_slip_waits_out_the_outage_and_goes_once(mail_server, tmp_path):
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings_for(mail_server, tmp_path), tls=mail_server.client_tls)
    mail_server.stop()
    slip = await courier.take(a_slip())
    assert slip.state is SlipState.QUEUED
    assert slip.status.startswith("not delivered yet") and "cannot reach 127.0.0.1" in slip.status

    await courier.deliver_due()  # still down: still kept
    assert courier.book.get(slip.id).state is SlipState.QUEUED and courier.book.get(slip.id).attempts == 2

    mail_server.start()
    await courier.deliver_due()
    await courier.deliver_due()
    assert len(mail_server.wait_for(1)) == 1
    assert courier.book.get(slip.id).state is SlipState.SENT
    assert await courier.resend(slip.id) and len(mail_server.received) == 1  # a delivered slip is not sent again


@pytest.mark.parametrize(("password", "reason"), [("wrong", "refused the login"), ("受付pass", "outside ASCII")])
async def test_a_login_that_cannot_work_holds_the_slip_and_says_why(mail_server, tmp_path, password, reason):
    settings = settings_for(mail_server, tmp_path)
    Path(settings.password_file).write_text(password, encoding="utf-8")
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings, tls=mail_server.client_tls)
    slip = await courier.take(a_slip())
    assert slip.state is SlipState.HELD and reason in slip.status
    await courier.deliver_due()  # held: not retried on its own
    assert mail_server.received == []


async def test_without_a_mail_server_the_slip_is_kept_and_says_so(tmp_path):
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), MessagesConfig())
    slip = await courier.take(a_slip())
    assert slip.state is SlipState.HELD and "smtp_host" in slip.status
    assert record_note(slip, 50).endswith(" · for 山田")
    assert SlipBook(tmp_path / "slips.json").of_day()[0].id == slip.id  # kept on disk
    assert (tmp_path / "slips.json").stat().st_mode & 0o777 == 0o600


async def test_someone_with_no_address_is_named(mail_server, tmp_path):
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings_for(mail_server, tmp_path), tls=mail_server.client_tls)
    slip = await courier.take(a_slip(for_email=""))
    assert slip.status == "not delivered: 山田 太郎 has no e-mail address"


def test_the_call_records_note_fits_and_says_where_it_went():
    slip = replace(a_slip(text="明日の会議の資料について至急確認したいことがあるので午後三時までに折り返しお願いしますとのこと"),
                   state=SlipState.SENT)
    note = record_note(slip, 50)
    assert len(note) == 50 and note.endswith("… · e-mailed to 山田") and note.startswith("折返し希望 明日の会議")
    assert record_note(replace(slip, text=""), 50) == "折返し希望 · e-mailed to 山田"


async def test_hostile_names_never_reach_the_headers_raw(mail_server, tmp_path):
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings_for(mail_server, tmp_path), tls=mail_server.client_tls)
    await courier.take(a_slip(caller_name="青木\u202e明美\x1b[31m\nBcc: x@evil.example", for_name="山田\u200b太郎"))
    [mail] = mail_server.wait_for(1)
    assert mail.envelope_to == ["yamada@example.co.jp"] and mail.message["Bcc"] is None
    assert "\u202e" not in mail.message["Subject"] and "\x1b" not in mail.message["Subject"]
    assert "\u200b" not in str(mail.message["To"])


def _taker(mail_server: MailServer, tmp_path: Path) -> subprocess.Popen:
    settings = settings_for(mail_server, tmp_path).model_dump(mode="json")
    return subprocess.Popen([sys.executable, str(HERE / "slip_taker.py"), json.dumps(settings), str(tmp_path / "slips.json"),
                             str(mail_server.cert)], stdout=subprocess.PIPE, text=True, env={**os.environ})


async def test_a_slip_queued_before_kill_9_is_delivered_once_after_restart(mail_server, tmp_path):
    mail_server.stop()
    desk = _taker(mail_server, tmp_path)
    try:
        assert desk.stdout.readline().split() == ["taken", "queued"]
    finally:
        desk.send_signal(signal.SIGKILL)
        desk.wait()
    mail_server.start()
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings_for(mail_server, tmp_path), tls=mail_server.client_tls)
    await courier.deliver_due()
    await courier.deliver_due()
    [mail] = mail_server.wait_for(1)
    assert "見積の件" in mail.message.get_body().get_content()
    assert [s.state for s in courier.book.all()] == [SlipState.SENT]


async def test_a_desk_killed_while_handing_over_never_sends_twice_on_its_own(mail_server, tmp_path):
    mail_server.hold.set()
    desk = _taker(mail_server, tmp_path)
    try:
        assert mail_server.in_data.wait(30), "the desk never reached DATA"
        on_disk = json.loads((tmp_path / "slips.json").read_text(encoding="utf-8"))["slips"]
        assert [s["state"] for s in on_disk] == ["sending"]
    finally:
        desk.send_signal(signal.SIGKILL)
        desk.wait()
    mail_server.hold.clear()
    mail_server.wait_for(1)  # the server took it although the desk never heard

    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings_for(mail_server, tmp_path), tls=mail_server.client_tls)
    [slip] = courier.book.all()
    assert slip.state is SlipState.UNCERTAIN and slip.status.startswith("maybe delivered")
    await courier.deliver_due()
    assert len(mail_server.received) == 1
    await courier.resend(slip.id)  # the desk checked and chose to send it again
    assert len(mail_server.wait_for(2)) == 2 and courier.book.get(slip.id).state is SlipState.SENT


async def test_the_password_can_come_from_a_key_rings_command(mail_server, tmp_path):
    """password_command as msmtp's passwordeval: here `cat` stands in for `secret-tool lookup ...`."""
    secret = tmp_path / "ring"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    settings = settings_for(mail_server, tmp_path).model_copy(update={"password_file": None, "password_command": ["cat", str(secret)]})
    courier = MessageCourier(SlipBook(tmp_path / "slips.json"), settings, tls=mail_server.client_tls)
    assert (await courier.take(a_slip())).state is SlipState.SENT
    failing = settings.model_copy(update={"password_command": ["false"]})
    slip = await MessageCourier(SlipBook(tmp_path / "other.json"), failing, tls=mail_server.client_tls).take(a_slip())
    assert slip.state is SlipState.HELD and "printed no password (exit 1)" in slip.status


def test_the_password_never_goes_in_the_config():
    with pytest.raises(ValueError, match="password_file .* or password_command"):
        MessagesConfig(smtp_host="mail.example", from_address="r@example.co.jp", username="reception")
    with pytest.raises(ValueError, match="from_address is required"):
        MessagesConfig(smtp_host="mail.example")
    with pytest.raises(ValueError, match="Extra inputs"):
        MessagesConfig(smtp_host="mail.example", from_address="r@example.co.jp", password="x")
