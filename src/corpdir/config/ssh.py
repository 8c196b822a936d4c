"""The ``[ssh]`` section: how `corpdir ssh-server` listens and how long sessions may last
(``CORPDIR_SSH_<NAME>``; its flags are stronger). Who may log in and which service each
key reaches stay in the files this section names (:mod:`corpdir.ssh.authorized`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class SshConfig(BaseModel):
    model_config = ConfigDict(extra="ignore")

    host: str = Field(default="127.0.0.1", description="address to listen on")
    port: int = Field(default=2222, ge=0, le=65535)
    host_key: Path | None = Field(default=None, description="the server's private host key (generated, mode 0600, if missing)")
    authorized_keys: Path | None = Field(default=None, description="OpenSSH authorized_keys: who may log in")
    profiles: Path | None = Field(default=None, description="TOML mapping a key to a service profile")
    idle_timeout: float = Field(default=900, ge=0, description="seconds without a key pressed before a session closes (0: never)")
    max_sessions: int = Field(default=20, ge=1)
    max_startups: int | str | None = Field(default=None, description="connections not yet logged in, START[:RATE:FULL] as sshd's MaxStartups (None: max_sessions)")
    per_source_startups: int | None = Field(default=None, ge=1, description="connections not yet logged in one address may hold (None: START)")
    preauth_timeout: float = Field(default=10, gt=0, description="seconds a connection has to ask to log in before it is dropped and its address refused for 20 s")
    login_timeout: float = Field(default=30, gt=0, description="seconds a connection has to log in")
