"""The ``[messages]`` and ``[whereabouts]`` sections: how a message taken at the desk
reaches the person it is for (e-mail over SMTP), and which whereabouts the desk can set.

The SMTP password is never in the config file: it is read, when a message is sent, from
``password_file`` (a file of its own, 0600) or printed by ``password_command``, the way
msmtp's ``passwordeval`` reaches a key ring (``secret-tool lookup service corpdir-smtp``
for GNOME's, ``keyring get corpdir-smtp reception`` for the keyring package's, ``pass
show mail/smtp``) without corpdir depending on one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class MessagesConfig(BaseModel):
    """``[messages]`` (``CORPDIR_MESSAGES_<KEY>``). With no ``smtp_host`` a message is kept
    as a slip and noted on the call record, and the slip says it was not e-mailed."""

    model_config = ConfigDict(extra="forbid")

    smtp_host: str = Field(default="", description="the mail server (empty: messages are not e-mailed)")
    smtp_port: int = Field(default=587, ge=1, le=65535, description="587 for STARTTLS, 465 for TLS")
    security: Literal["starttls", "tls", "none"] = Field(
        default="starttls", description="starttls (the submission port), tls (implicit, port 465), or none (a relay on loopback only)")
    username: str = Field(default="", description="login name (empty: no login)")
    password_file: Path | None = Field(default=None, description="a file holding the password (mode 0600)")
    password_command: list[str] = Field(default_factory=list, description="a command (program and arguments) that "
                                        "prints the password, e.g. [\"secret-tool\", \"lookup\", \"service\", \"corpdir-smtp\"]")
    from_address: str = Field(default="", description="the sender, e.g. reception@example.co.jp")
    from_name: str = Field(default="受付", description="the sender's display name")
    timeout: float = Field(default=20.0, gt=0, description="seconds one delivery may take")
    retry_every: float = Field(default=60.0, gt=0, description="seconds between tries of a message not yet delivered")

    @model_validator(mode="after")
    def _complete(self) -> MessagesConfig:
        if self.smtp_host and not self.from_address:
            raise ValueError("from_address is required when smtp_host is set (the mail's sender)")
        if self.username and self.password_file is None and not self.password_command:
            raise ValueError("username needs a password: set password_file (a 0600 file) or password_command (a key "
                             "ring's lookup command); the password itself never goes in the config")
        if self.password_file is not None and self.password_command:
            raise ValueError("set either password_file or password_command, not both")
        return self

    @property
    def enabled(self) -> bool:
        return bool(self.smtp_host)


class Destination(BaseModel):
    """One whereabouts the desk can set (spec 2.11: destinationId, destinationName)."""

    model_config = ConfigDict(extra="forbid")

    id: int = Field(ge=0, le=2**63 - 1)
    name: str = Field(min_length=1, max_length=100)


DEFAULT_DESTINATIONS = (Destination(id=0, name="在席"), Destination(id=1, name="外出"), Destination(id=2, name="会議中"),
                        Destination(id=3, name="出張"), Destination(id=4, name="休暇"), Destination(id=5, name="帰宅"))


class WhereaboutsConfig(BaseModel):
    """``[whereabouts]`` (``CORPDIR_WHEREABOUTS_<KEY>``): the tenant's destinations the desk
    offers (``[[whereabouts.destinations]]`` with ``id`` and ``name``), and how often at most
    the changes go to the service (one U11 request per ``send_every`` seconds)."""

    model_config = ConfigDict(extra="forbid")

    destinations: list[Destination] = Field(default_factory=lambda: list(DEFAULT_DESTINATIONS), min_length=1)
    send_every: float = Field(default=60.0, ge=1, description="seconds at least between two U11 requests")

    @model_validator(mode="after")
    def _unique(self) -> WhereaboutsConfig:
        ids = [d.id for d in self.destinations]
        if len(set(ids)) != len(ids):
            raise ValueError(f"destination ids must be unique, got {ids}")
        return self
