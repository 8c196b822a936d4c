"""``[calls.presence]``: where the busy lamps come from (corpdir.calls.presence).

Each class configures one source of :mod:`corpdir.calls.presence` and is named
``<Source>Config`` like the feeds' settings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class AmiLogin(BaseModel):
    """Where Asterisk's manager interface listens and whom corpdir logs in as: the same
    for the call feed, the dialer and the busy lamps (each may name its own user)."""

    host: str = "127.0.0.1"
    port: int = Field(default=5038, ge=1, le=65535)
    username: str
    secret: SecretStr


class _PresenceConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_watched: int = Field(default=200, ge=1, le=5000, description="lamps kept at most: the favourites first, then "
                             "the people on screen (a tenant of 10,000 extensions is never watched whole)")


class KamailioPresenceConfig(_PresenceConfig):
    """kamailio's evapi events (docs/sip/kamailio.cfg), seeded over its JSON-RPC datagram socket."""

    kind: Literal["kamailio"]
    evapi: str = Field(default="127.0.0.1:8448", pattern=r"^[^:]+:\d{1,5}$", description="host:port of evapi's bind_addr")
    rpc_socket: str = Field(default="/var/run/kamailio/kamailio_rpc.sock",
                            description="jsonrpcs' datagram socket: registrations and calls up when corpdir connects")


class AmiPresenceConfig(_PresenceConfig, AmiLogin):
    """Asterisk's hints over the manager interface (ExtensionStateList, ExtensionStatus)."""

    kind: Literal["ami"]
    context: str = Field(default="", description="only the hints of this context (empty: all)")


PresenceConfig = Annotated[KamailioPresenceConfig | AmiPresenceConfig, Field(discriminator="kind")]
