"""corpdir's configuration: a typed settings object built once, before the app starts.

Sources, strongest first: command-line flags (passed as init values), environment
variables (``CORPDIR_BASE_URL``, ``CORPDIR_API_KEY``, ...), then the config file
(``config.toml`` in the platformdirs config dir, or the file named by ``CORPDIR_CONFIG``),
tables ``[service]``, ``[ui]`` and ``[calls]``. With no base URL anywhere, corpdir runs the reference
server in-process on the demo tenant (the embedded default).

Things the app learns while running (the chosen theme, recent lookups) are state, not
configuration: they live in :mod:`corpdir.state`, never rewritten into the user's file.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, InitSettingsSource, SettingsConfigDict

from corpdir.client.settings import ClientSettings
from corpdir.paths import Profile, given, profile_for, read_config_table, service_values


def _toml_table(settings_cls: type[BaseSettings], table: str) -> InitSettingsSource:
    """One table of the config file as a settings source, read when settings are built (so
    CORPDIR_CONFIG set by a test or a wrapper script is honoured); keys that are not fields
    of ``settings_cls`` are left out."""
    values = read_config_table(table)
    return InitSettingsSource(settings_cls, {k: v for k, v in values.items() if k in settings_cls.model_fields})


def _sources(table: str):  # noqa: ANN202 - pydantic-settings hook
    def customise(cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings):  # noqa: ANN001
        return init_settings, env_settings, _toml_table(settings_cls, table), file_secret_settings

    return classmethod(customise)


def _service_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings):  # noqa: ANN001, ANN202
    """The ``[service]`` settings as :func:`corpdir.paths.service_values` reads them
    (environment over file, blank = not given): the reader `corpdir lookup` uses too, so
    the two never disagree on which service, which key, which cache file."""
    return init_settings, InitSettingsSource(settings_cls, service_values(settings_cls.model_fields))


class ServiceSettings(ClientSettings):
    """The ``[service]`` table: which directory service to talk to, and how."""

    model_config = SettingsConfigDict(env_prefix="CORPDIR_", extra="ignore")
    settings_customise_sources = classmethod(_service_sources)

    base_url: str | None = None  # None: the embedded reference server on the demo tenant
    region: str = Field(default="JP", description="default region for phone numbers without a country code")
    stale_after: float = Field(default=15 * 60, description="seconds after which cached data is refreshed first")
    demo_size: int = 500
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


def dotted(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A table with its nested tables flattened to dotted names: ``directory.search = "f6"``
    written without quotes is, to TOML, a table ``directory`` holding ``search``."""
    flat: dict[str, Any] = {}
    for name, value in table.items():
        if isinstance(value, dict):
            flat.update(dotted(value, f"{prefix}{name}."))
        else:
            flat[f"{prefix}{name}"] = value
    return flat


def _ui_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings):  # noqa: ANN001, ANN202
    """The ``[ui]`` table, then the ``[keymap]`` table as the ``keymap`` field."""
    keymap = read_config_table("keymap")
    return (init_settings, env_settings, _toml_table(settings_cls, "ui"),
            InitSettingsSource(settings_cls, {"keymap": dotted(keymap)} if keymap else {}))


class UiSettings(BaseSettings):
    """The ``[ui]`` table, and the ``[keymap]`` table (binding id -> keys)."""

    model_config = SettingsConfigDict(env_prefix="CORPDIR_UI_", extra="ignore")
    settings_customise_sources = classmethod(_ui_sources)

    theme: str | None = None  # None: the last theme chosen in the app, else corpdir-dark
    read_only: bool = False
    photos: bool = True
    # checked by the app (corpdir.tui.keymap): a bad entry is a notification, never a start that fails
    keymap: dict[str, Any] = Field(default_factory=dict, description="binding id -> keys, e.g. directory.search = \"f6\"")


def load_settings(**service_overrides: Any) -> tuple[ServiceSettings, UiSettings]:
    """Settings from flags (``service_overrides``), environment and file."""
    overrides = {k: v for k, v in service_overrides.items() if given(v) is not None}
    return ServiceSettings(**overrides), UiSettings()


# -- calls: where the desk's phone rings, and how it dials ([calls] table) -------------------
class _Feed(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="shown in the status bar and on the pop-up")
    records: bool = Field(default=True, description="this is the desk's own phone: a call that ends becomes an H2 record")


class HistoryFeed(_Feed):
    """The service's own incoming history (H1), polled: works with any deployment."""

    kind: Literal["history"]
    records: Literal[False] = False  # the records are already there
    interval: float = Field(default=10.0, gt=0, description="seconds between polls (raised to fit the rate budget)")


class BaresipFeed(_Feed):
    """A soft phone: baresip's ctrl_tcp module (netstring JSON)."""

    kind: Literal["baresip"]
    host: str = "127.0.0.1"
    port: int = Field(default=4444, ge=1, le=65535)


class AmiFeed(_Feed):
    """Asterisk / FreePBX manager interface: events for one extension."""

    kind: Literal["ami"]
    host: str = "127.0.0.1"
    port: int = Field(default=5038, ge=1, le=65535)
    username: str
    secret: SecretStr
    extension: str = Field(min_length=1, description="the desk's extension (e.g. 201 for PJSIP/201)")
    context: str = Field(default="from-internal", description="dial plan context for Originate")


class ActionUrlFeed(_Feed):
    """A Yealink or Snom desk phone requesting ``http://<listen>/<token>/<event>?...``."""

    kind: Literal["action_url"]
    listen: str = Field(default="127.0.0.1:8765", pattern=r"^[^:]+:\d{1,5}$", description="host:port corpdir listens on")
    token: SecretStr = Field(description="the secret first path segment; other requests are refused")


Feed = Annotated[HistoryFeed | BaresipFeed | AmiFeed | ActionUrlFeed, Field(discriminator="kind")]


class BaresipDialer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["baresip"]
    host: str = "127.0.0.1"
    port: int = Field(default=4444, ge=1, le=65535)
    domain: str = Field(default="", description="dial sip:<number>@<domain> (empty: the bare number, baresip adds its account's)")


class AmiDialer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["ami"]
    host: str = "127.0.0.1"
    port: int = Field(default=5038, ge=1, le=65535)
    username: str
    secret: SecretStr
    channel: str = Field(description="the desk phone's channel, rung first (e.g. PJSIP/201)")
    context: str = "from-internal"
    caller_id: str = ""


class PhoneUriDialer(BaseModel):
    """A Yealink/Snom action URI: ``{number}`` in the URL is replaced by the number."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["action_uri"]
    url: str = Field(pattern=r"^https?://.*\{number\}", description="e.g. http://phone/cgi-bin/ConfigManApp.com?key=... with {number}")
    username: str = ""
    password: SecretStr = SecretStr("")


Dialer = Annotated[BaresipDialer | AmiDialer | PhoneUriDialer, Field(discriminator="kind")]


class CallsSettings(BaseSettings):
    """The ``[calls]`` table: feeds (``[[calls.feeds]]``, several at once, each named),
    the dialer (``[calls.dialer]``), and the local ring socket for `corpdir ring`."""

    model_config = SettingsConfigDict(env_prefix="CORPDIR_CALLS_", extra="forbid")
    settings_customise_sources = _sources("calls")

    feeds: list[Feed] = Field(default_factory=list)
    dialer: Dialer | None = None
    ring_socket: bool | None = Field(default=None, description="listen for `corpdir ring` in the runtime dir "
                                     "(default: when this TUI has a feed, i.e. it is the desk)")
    every_session: bool = Field(default=False, description="SSH, web and kiosk (--read-only) sessions also run the "
                                "feeds and take rings (default: only a local, writable TUI: the desk)")
    recent_calls: int = Field(default=3, ge=0, le=20, description="earlier calls from the number shown on the pop-up")

    @field_validator("feeds")
    @classmethod
    def _unique_names(cls, feeds: list[Any]) -> list[Any]:
        names = [f.name for f in feeds]
        if len(set(names)) != len(names):
            raise ValueError(f"feed names must be unique, got {names}")
        return feeds


class CallsConfigError(ValueError):
    """The ``[calls]`` table is wrong: each line names the field and the rule."""


def load_calls_settings() -> CallsSettings:
    """The ``[calls]`` table; a mistake raises CallsConfigError naming the field and the rule."""
    from pydantic import ValidationError

    try:
        return CallsSettings()
    except ValidationError as exc:
        lines = []
        for error in exc.errors():
            where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error["loc"]).lstrip(".")
            lines.append(f"[calls] {where}: {error['msg']}")
        raise CallsConfigError("\n".join(lines)) from None
