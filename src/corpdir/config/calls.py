"""The ``[calls]`` section: where the desk's phone rings (feeds), how it dials (the dialer),
and the local ring socket for `corpdir ring`.

Each class is the configuration of one runtime part of :mod:`corpdir.calls` and is named
``<Part>Config`` (``BaresipFeedConfig`` configures ``calls.feeds.baresip.BaresipFeed``), so a
module that holds both never confuses them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from corpdir.config.presence import AmiLogin, PresenceConfig


class _FeedConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="shown in the status bar and on the pop-up")
    records: bool = Field(default=True, description="this is the desk's own phone: a call that ends becomes an H2 record")


class HistoryFeedConfig(_FeedConfig):
    """The service's own incoming history (H1), polled: works with any deployment."""

    kind: Literal["history"]
    records: Literal[False] = False  # the records are already there
    interval: float = Field(default=10.0, gt=0, description="seconds between polls (raised to fit the rate budget)")


class BaresipFeedConfig(_FeedConfig):
    """A soft phone: baresip's ctrl_tcp module (netstring JSON)."""

    kind: Literal["baresip"]
    host: str = "127.0.0.1"
    port: int = Field(default=4444, ge=1, le=65535)


class AmiFeedConfig(_FeedConfig, AmiLogin):
    """Asterisk / FreePBX manager interface: events for one extension."""

    kind: Literal["ami"]
    extension: str = Field(min_length=1, description="the desk's extension (e.g. 201 for PJSIP/201)")
    context: str = Field(default="from-internal", description="dial plan context for Originate")


class ActionUrlFeedConfig(_FeedConfig):
    """A Yealink or Snom desk phone requesting ``http://<listen>/<token>/<event>?...``."""

    kind: Literal["action_url"]
    listen: str = Field(default="127.0.0.1:8765", pattern=r"^[^:]+:\d{1,5}$", description="host:port corpdir listens on")
    token: SecretStr = Field(description="the secret first path segment; other requests are refused")


FeedConfig = Annotated[HistoryFeedConfig | BaresipFeedConfig | AmiFeedConfig | ActionUrlFeedConfig,
                       Field(discriminator="kind")]


class BaresipDialerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["baresip"]
    host: str = "127.0.0.1"
    port: int = Field(default=4444, ge=1, le=65535)
    domain: str = Field(default="", description="dial sip:<number>@<domain> (empty: the bare number, baresip adds its account's)")


class AmiDialerConfig(AmiLogin):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["ami"]
    channel: str = Field(description="the desk phone's channel, rung first (e.g. PJSIP/201)")
    context: str = "from-internal"
    caller_id: str = ""


class PhoneUriDialerConfig(BaseModel):
    """A Yealink/Snom action URI: ``{number}`` in the URL is replaced by the number."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["action_uri"]
    url: str = Field(pattern=r"^https?://.*\{number\}", description="e.g. http://phone/cgi-bin/ConfigManApp.com?key=... with {number}")
    username: str = ""
    password: SecretStr = SecretStr("")


DialerConfig = Annotated[BaresipDialerConfig | AmiDialerConfig | PhoneUriDialerConfig, Field(discriminator="kind")]


class CallsConfig(BaseModel):
    """The ``[calls]`` table (``CORPDIR_CALLS_<NAME>``): feeds (``[[calls.feeds]]``, several
    at once, each named), the dialer (``[calls.dialer]``), and the ring socket."""

    model_config = ConfigDict(extra="ignore")

    feeds: list[FeedConfig] = Field(default_factory=list)
    dialer: DialerConfig | None = None
    ring_socket: bool | None = Field(default=None, description="listen for `corpdir ring` in the runtime dir "
                                     "(default: when this TUI has a feed, i.e. it is the desk)")
    every_session: bool = Field(default=False, description="SSH, web and kiosk (--read-only) sessions also run the "
                                "feeds and take rings (default: only a local, writable TUI: the desk)")
    recent_calls: int = Field(default=3, ge=0, le=20, description="earlier calls from the number shown on the pop-up")
    ended_card_seconds: float = Field(default=60.0, ge=0, description="how long the card of an ended call stays on "
                                      "the pop-up (D closes all cards at once)")
    presence: PresenceConfig | None = Field(default=None, description="the busy lamps' source ([calls.presence])")

    @field_validator("feeds")
    @classmethod
    def _unique_names(cls, feeds: list[Any]) -> list[Any]:
        names = [f.name for f in feeds]
        if len(set(names)) != len(names):
            raise ValueError(f"feed names must be unique, got {names}")
        return feeds
