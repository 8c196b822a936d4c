"""The ``[gateway]`` section: how `corpdir gateway` listens, whom it lets in, and how long
it waits for the service (``CORPDIR_GATEWAY_<NAME>``; its flags are stronger)."""

from __future__ import annotations

import ipaddress

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator


class GatewayConfig(BaseModel):
    model_config = ConfigDict(extra="ignore")

    host: str = Field(default="127.0.0.1", description="address to listen on (127.0.0.1: this machine only)")
    port: int = Field(default=8765, ge=0, le=65535)
    token: SecretStr | None = Field(default=None, description="secret path segment: http://HOST:PORT/t/TOKEN/...")
    user: str | None = Field(default=None, description="HTTP basic auth user (FreePBX: user:pass@ in the URL)")
    password: SecretStr | None = None
    allow: list[str] = Field(default_factory=list, description="client networks allowed (empty: any)")
    deadline_ms: float = Field(default=300, gt=0, le=10_000, description="longest wait for the service (N1) on an uncached number")
    n1_share: float = Field(default=0.25, ge=0, le=0.9, description="share of the key's rate budget kept for N1 on uncached numbers (a sync never spends it)")
    sync_every: float = Field(default=900, ge=0, description="seconds between background syncs (0: none)")
    public_url: str | None = Field(default=None, description="the URL phones reach the gateway at (for links and templates)")
    cisco_page_bytes: int = Field(default=4000, ge=1500, le=512_000,
                                  description="largest Cisco directory page in bytes (older models refuse an XML object over 4,000)")
    strip_prefixes: list[str] = Field(default_factory=lambda: ["0", "9"],
                                      description="outside-line prefixes a PBX may put before a caller's number")

    @field_validator("allow")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        for network in value:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError as exc:
                raise ValueError(f"allow: {network!r} is not an address or network ({exc})") from None
        return value

    @field_validator("public_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        """Checked at the start: a URL phones cannot reach went into every link and template."""
        from urllib.parse import urlsplit

        if value is None or not value.strip():  # blank: as each request came
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{value!r} is not a URL phones can reach (http://HOST:PORT or https://HOST/...)")
        return value.strip()

    @field_validator("strip_prefixes")
    @classmethod
    def _digits(cls, value: list[str]) -> list[str]:
        bad = [p for p in value if not p.isdigit()]
        if bad:
            raise ValueError(f"strip_prefixes: {bad[0]!r} is not digits")
        return value
