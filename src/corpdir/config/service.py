"""The ``[service]`` section: which directory service, and how the client talks to it.

:class:`ConnectionConfig` is what :class:`corpdir.client.DirectoryClient` takes: a plain
typed object that reads nothing by itself, so the client never decides where settings
come from (the root :class:`corpdir.config.Settings` does: flags, ``CORPDIR_<NAME>``, the
config file). It lives here, below the client, so that building it never imports the client.

The API key is a ``SecretStr`` from the first of: ``api_key``, the file named by
``api_key_file`` (first line, read by :func:`corpdir.paths.api_key_from`, as `corpdir
lookup` reads it), or the system keyring (``keyring`` is imported only when a keyring
service is configured and the package is installed; it is not a dependency). A SecretStr
prints as ``**********``, so the key cannot leak through a repr. A key file that cannot be
read, or a keyring without a usable backend (a server without a desktop session), is
logged as a warning and gives no key: the service then answers 401.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from corpdir.paths import Profile, api_key_from, given, profile_for
from corpdir.phone_rules import checked_region

log = logging.getLogger("corpdir.client")


class ConnectionConfig(BaseModel):
    """How to reach the service: address, key, variant, timeouts, retries, concurrency."""

    model_config = ConfigDict(extra="ignore")

    base_url: str | None = "http://127.0.0.1:8765/v1"
    api_key: SecretStr | None = None
    api_key_file: Path | None = None
    keyring_service: str | None = Field(default=None, description="look the key up in the system keyring")
    keyring_username: str = "api-key"
    variant: Literal["A", "B", "C"] = "C"
    routing_file: Path | None = None

    timeout: float = Field(default=30.0, gt=0)  # seconds for reading an answer
    connect_timeout: float = Field(default=5.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    retry_initial_delay: float = Field(default=0.5, ge=0)
    retry_max_delay: float = Field(default=8.0, ge=0)
    max_retry_after: float = Field(default=60.0, ge=0)  # a longer Retry-After fails at once
    concurrency: int = Field(default=8, ge=1, description="requests in flight at once")
    read_only: bool = Field(default=False, description="refuse every operation that would change the directory")
    user_agent: str = "corpdir-client"

    def resolve_api_key(self) -> SecretStr | None:
        key = api_key_from(self.api_key.get_secret_value() if self.api_key else None, self.api_key_file)
        if key is not None:
            return SecretStr(key)
        if self.keyring_service:
            try:
                import keyring  # optional: only if installed
            except ImportError:
                log.warning("keyring_service is set but the 'keyring' package is not installed")
                return None
            try:
                value = keyring.get_password(self.keyring_service, self.keyring_username)
            except Exception as exc:  # NoKeyringError, a locked or broken backend ...
                log.warning("the system keyring could not be read (%s)", type(exc).__name__)
                return None
            if value and value.strip():
                return SecretStr(value.strip())
        return None


class ServiceConfig(ConnectionConfig):
    """The ``[service]`` table (``CORPDIR_<NAME>`` in the environment): the connection, and
    what corpdir does with the service's data (region, staleness, the embedded demo)."""

    base_url: str | None = None  # None: the embedded reference server on the demo tenant
    region: str = Field(default="JP", description="default region for phone numbers without a country code")

    @field_validator("region")
    @classmethod
    def _country_code(cls, value: str) -> str:
        """``jp`` is JP (:func:`corpdir.phone_rules.checked_region`)."""
        return checked_region(value)
    stale_after: float = Field(default=15 * 60, ge=0, description="seconds after which cached data is refreshed first")
    # the demo generator's smallest tenant (corpdir.server.DEMO_MIN_SIZE; a test holds the two
    # together): a smaller one ended in its ValueError's traceback
    demo_size: int = Field(default=500, ge=10)
    demo_seed: int = 1

    @property
    def is_demo(self) -> bool:
        return given(self.base_url) is None

    def profile(self) -> Profile:
        """This service's identity (base URL and key), e.g. to find its cache file: the
        same :func:`corpdir.paths.profile_for` as `corpdir lookup`'s, the keyring after."""
        profile = profile_for(self.base_url, self.api_key.get_secret_value() if self.api_key else None, self.api_key_file)
        if profile.is_demo or profile.api_key is not None:
            return profile
        key = self.resolve_api_key()  # the keyring, if one is configured
        return profile._replace(api_key=key.get_secret_value() if key else None)


def service_env_names() -> tuple[str, ...]:
    """Every environment variable of the ``[service]`` section (``CORPDIR_<NAME>``)."""
    return tuple(f"CORPDIR_{name.upper()}" for name in ServiceConfig.model_fields)
