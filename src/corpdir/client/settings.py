"""Client configuration from the environment (prefix ``CORPDIR_``) or code.

The API key is a ``SecretStr`` from the first of: ``CORPDIR_API_KEY``, the file named by
``CORPDIR_API_KEY_FILE`` (first line), or the system keyring (``keyring`` is imported
only when a keyring service is configured and the package is installed; it is not a
dependency). A SecretStr prints as ``**********``, so the key cannot leak through a repr.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

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

    timeout: float = 30.0  # seconds for reading an answer
    connect_timeout: float = 5.0
    max_retries: int = 4
    retry_initial_delay: float = 0.5
    retry_max_delay: float = 8.0
    max_retry_after: float = 60.0  # a longer Retry-After fails at once
    concurrency: int = Field(default=8, ge=1, description="requests in flight at once")
    read_only: bool = Field(default=False, description="refuse every operation that would change the directory")
    user_agent: str = "corpdir-client"

    def resolve_api_key(self) -> SecretStr | None:
        if self.api_key is not None and self.api_key.get_secret_value():
            return self.api_key
        if self.api_key_file is not None:
            text = self.api_key_file.expanduser().read_text(encoding="utf-8").strip().splitlines()
            if text and text[0].strip():
                return SecretStr(text[0].strip())
        if self.keyring_service:
            try:
                import keyring  # optional: only if installed
            except ImportError:
                return None
            value = keyring.get_password(self.keyring_service, self.keyring_username)
            if value:
                return SecretStr(value)
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
