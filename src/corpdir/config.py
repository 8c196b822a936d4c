"""corpdir's configuration: a typed settings object built once, before the app starts.

Sources, strongest first: command-line flags (passed as init values), environment
variables (``CORPDIR_BASE_URL``, ``CORPDIR_API_KEY``, ...), then the config file
(``config.toml`` in the platformdirs config dir, or the file named by ``CORPDIR_CONFIG``),
tables ``[service]`` and ``[ui]``. With no base URL anywhere, corpdir runs the reference
server in-process on the demo tenant (the embedded default).

Things the app learns while running (the chosen theme, recent lookups) are state, not
configuration: they live in :mod:`corpdir.state`, never rewritten into the user's file.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from corpdir.client.settings import ClientSettings
from corpdir.paths import DEMO_API_KEY, Profile, read_config_table

class TomlTable(PydanticBaseSettingsSource):
    """One table of the config file, read when settings are built (so CORPDIR_CONFIG set
    by a test or a wrapper script is honoured)."""

    def __init__(self, settings_cls: type[BaseSettings], table: str) -> None:
        super().__init__(settings_cls)
        self.values: dict[str, Any] = read_config_table(table)

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self.values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return {k: v for k, v in self.values.items() if k in self.settings_cls.model_fields}


def _sources(table: str):  # noqa: ANN202 - pydantic-settings hook
    def customise(cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings):  # noqa: ANN001
        return init_settings, env_settings, TomlTable(settings_cls, table), file_secret_settings

    return classmethod(customise)


class ServiceSettings(ClientSettings):
    """The ``[service]`` table: which directory service to talk to, and how."""

    model_config = SettingsConfigDict(env_prefix="CORPDIR_", extra="ignore")
    settings_customise_sources = _sources("service")

    base_url: str | None = None  # None: the embedded reference server on the demo tenant
    region: str = Field(default="JP", description="default region for phone numbers without a country code")
    stale_after: float = Field(default=15 * 60, description="seconds after which cached data is refreshed first")
    demo_size: int = 500
    demo_seed: int = 1

    @property
    def is_demo(self) -> bool:
        return not self.base_url

    def profile(self) -> Profile:
        """This service's identity (base URL and key), e.g. to find its cache file."""
        if self.is_demo:
            return Profile(None, DEMO_API_KEY)
        key = self.resolve_api_key()
        return Profile(self.base_url, key.get_secret_value() if key else None)


class UiSettings(BaseSettings):
    """The ``[ui]`` table."""

    model_config = SettingsConfigDict(env_prefix="CORPDIR_UI_", extra="ignore")
    settings_customise_sources = _sources("ui")

    theme: str | None = None  # None: the last theme chosen in the app, else corpdir-dark
    read_only: bool = False
    photos: bool = True


def load_settings(**service_overrides: Any) -> tuple[ServiceSettings, UiSettings]:
    """Settings from flags (``service_overrides``), environment and file."""
    overrides = {k: v for k, v in service_overrides.items() if v is not None}
    return ServiceSettings(**overrides), UiSettings()
