"""Settings of the reference server, built by the caller and passed to ``create_app``.

Everything a test needs to control is here: the database location, the variant served,
the clock (so the L1 windows and the token bucket can be moved without sleeping), the
rate limits, the caller allow-list and the pluggable business-card reader.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

MIB = 1024 * 1024

Clock = Callable[[], float]
"""Seconds since the epoch, like ``time.time``."""

CardReader = Callable[[bytes, Any], "dict[str, Any] | None"]
"""Text recognition of a business card: ``(jpeg, BusinessCardForm) -> contact fields``,
or None when nothing could be read (the contact is kept with ocrResult FAILURE)."""


def no_card_reader(image: bytes, form: Any) -> dict[str, Any] | None:
    """The default reader: recognises nothing, so the contact keeps empty fields."""
    return None


@dataclass
class RateLimitSettings:
    """Token bucket per API key (http-contract.md: burst 60, 10 tokens/s)."""

    enabled: bool = True
    burst: int = 60
    rate: float = 10.0
    spots_window: bool = True  # L1's one accepted request per 5 minutes (off for test runs)


@dataclass
class ServerSettings:
    data: Path | str | None = None  # a directory; None or ":memory:" keeps everything in memory
    variant: str = "C"
    demo: Any = None  # None, True (generate), or a DemoTenant to load
    demo_size: int = 500
    demo_seed: int = 1
    bootstrap_key: str | None = None  # the first admin's key on a fresh database; random if None
    rate_limit: RateLimitSettings = field(default_factory=RateLimitSettings)
    allowed_networks: list[str] = field(default_factory=list)  # CIDRs; empty = any caller
    clock: Clock = time.time
    region: str = "JP"  # default region of corpdir.phone.match_key
    card_reader: CardReader = no_card_reader
    max_image_bytes: int = 10 * MIB
    max_json_bytes: int = 16 * MIB
    public_url: str = "http://127.0.0.1:8765"  # base of contactDetailsUrl

    @property
    def database(self) -> str:
        if self.data is None or str(self.data) == ":memory:":
            return ":memory:"
        return str(Path(self.data) / "corpdir.sqlite3")
