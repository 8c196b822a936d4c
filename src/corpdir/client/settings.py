"""Client configuration from the environment (prefix ``CORPDIR_``) or code.

The API key is a ``SecretStr`` from the first of: ``CORPDIR_API_KEY``, the file named by
``CORPDIR_API_KEY_FILE`` (first line, read by :func:`corpdir.paths.api_key_from`, as
`corpdir lookup` reads it), or the system keyring (``keyring`` is imported
only when a keyring service is configured and the package is installed; it is not a
dependency). A SecretStr prints as ``**********``, so the key cannot leak through a repr.
Surrounding whitespace (a line break pasted with the key) is removed. A key file that
cannot be read, or a keyring without a usable backend (a server without a desktop
session), is logged as a warning and gives no key: the service then answers 401.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from corpdir.paths import api_key_from

log = logging.getLogger("corpdir.client")

if TYPE_CHECKING:  # loaded when the client is built, not with the settings (the TUI starts lighter)
    import httpx

    from corpdir.client.retry import RetryPolicy


class ClientSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CORPDIR_", extra="ignore")

    base_url: str = "http://127.0.0.1:8765/v1"
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

    def retry_policy(self) -> RetryPolicy:
        from corpdir.client.retry import RetryPolicy

        return RetryPolicy(
            max_retries=self.max_retries,
            initial_delay=self.retry_initial_delay,
            max_delay=self.retry_max_delay,
            max_retry_after=self.max_retry_after,
        )

    def httpx_timeout(self) -> httpx.Timeout:
        import httpx

        return httpx.Timeout(self.timeout, connect=self.connect_timeout)
