"""The settings as one checked object: :class:`Settings` and :func:`load_settings`, with
the rules each source follows (see :mod:`corpdir.config`)."""

from __future__ import annotations

import os
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from corpdir.config.calls import CallsConfig
from corpdir.config.first import dotted
from corpdir.config.gateway import GatewayConfig
from corpdir.config.messages import MessagesConfig, WhereaboutsConfig
from corpdir.config.service import ServiceConfig, service_env_names
from corpdir.config.sources import merged, sections_from_environment
from corpdir.config.ssh import SshConfig
from corpdir.config.ui import UiConfig
from corpdir.config.unknown import known_at, suggestion, warn_unknown, warn_unknown_variables
from corpdir.paths import (SettingsError, config_path, given, read_config, service_values, warn_if_named_and_missing,
                           warn_if_readable_by_others)

# The sections read from ``CORPDIR_<SECTION>_<KEY>`` (corpdir.config.sources), with their
# variables' prefix. The service's are read by corpdir.paths.service_values instead: the
# reader `corpdir lookup` shares, so the two never disagree on which service, which key,
# which cache file.
ENV_SECTIONS: dict[str, tuple[str, type[BaseModel]]] = {
    "ui": ("CORPDIR_UI_", UiConfig), "calls": ("CORPDIR_CALLS_", CallsConfig),
    "gateway": ("CORPDIR_GATEWAY_", GatewayConfig), "ssh": ("CORPDIR_SSH_", SshConfig),
    "messages": ("CORPDIR_MESSAGES_", MessagesConfig), "whereabouts": ("CORPDIR_WHEREABOUTS_", WhereaboutsConfig),
}


# The CORPDIR_* variables that are places or plumbing, not settings: read as written
# (corpdir.paths; the SSH server's session marker and start queue; `corpdir ldap-sync`).
OTHER_VARIABLES = ("CORPDIR_CONFIG", "CORPDIR_DATA_DIR", "CORPDIR_CACHE_DIR", "CORPDIR_STATE_DIR", "CORPDIR_RUNTIME_DIR",
                   "CORPDIR_SESSION", "CORPDIR_START_QUEUE", "CORPDIR_LDAP_PASSWORD")


class Settings(BaseModel):
    """Every setting of corpdir: one section per table of the config file. A plain model:
    :func:`load_settings` merges the sources (docs/decisions.md, "The settings without
    pydantic-settings")."""

    model_config = ConfigDict(extra="ignore", validate_default=True)

    service: ServiceConfig = Field(default_factory=ServiceConfig)
    ui: UiConfig = Field(default_factory=UiConfig)
    # binding id -> keys, e.g. directory.search = "f6"; checked by the app (corpdir.tui.keymap):
    # a bad entry is a notification, never a start that fails
    keymap: dict[str, Any] = Field(default_factory=dict)
    calls: CallsConfig = Field(default_factory=CallsConfig)
    gateway: GatewayConfig = Field(default_factory=GatewayConfig)
    ssh: SshConfig = Field(default_factory=SshConfig)
    messages: MessagesConfig = Field(default_factory=MessagesConfig)
    whereabouts: WhereaboutsConfig = Field(default_factory=WhereaboutsConfig)


def load_settings(**flags: dict[str, Any]) -> Settings:
    """The settings from flags (``flags``: per section, e.g. ``service={"base_url": ...}``;
    a flag that is None or blank says nothing), the environment and the file, read now (so
    ``CORPDIR_CONFIG`` set by a test or a wrapper script is honoured).

    A value that breaks a rule raises :class:`SettingsError`, naming each section, key and
    rule; `corpdir` prints it and exits with status 2."""
    given_flags = {section: {k: v for k, v in values.items() if given(v) is not None} for section, values in flags.items()}
    warn_if_named_and_missing()
    warn_unknown_variables(os.environ, [*service_env_names(), *OTHER_VARIABLES],
                           [f"{prefix}{name}" for prefix, model in ENV_SECTIONS.values() for name in model.model_fields])
    warn_if_readable_by_others(config_path())
    tables, wrong = _tables(Settings.model_fields)
    warn_unknown(config_path(), tables, {name: field.annotation for name, field in Settings.model_fields.items()})
    file_values: dict[str, Any] = {name: tables[name] for name in ENV_SECTIONS if name in tables}
    if "keymap" in tables:
        file_values["keymap"] = dotted(tables["keymap"])
    service = service_values(ServiceConfig.model_fields, tables.get("service", {}))
    return _validated(merged(given_flags, sections_from_environment(ENV_SECTIONS), {"service": service}, file_values),
                      wrong)


def load_service_settings(base_url: str | None = None) -> ServiceConfig:
    """The ``[service]`` section alone (``base_url``: the ``--base-url`` flag), read and
    checked as :func:`load_settings` does, the other sections neither read nor checked: for
    `corpdir lookup`, whose caller ID must not stop while the gateway's port is mistyped
    (docs/configuration.md, "`corpdir lookup`: the fast reader")."""
    tables, wrong = _tables(("service",))
    service = service_values(ServiceConfig.model_fields, tables.get("service", {}))
    return _validated(merged({"service": {"base_url": given(base_url)} if given(base_url) else {}},
                             {"service": service}), wrong).service


def _tables(sections: Iterable[str]) -> tuple[dict[str, Any], list[str]]:
    """The config file's tables, without those of ``sections`` written as a value, and the
    mistakes naming those (said with the others' mistakes, all at once)."""
    tables = read_config()
    wrong = [name for name in sections if not isinstance(tables.get(name, {}), dict)]
    said = [f"[{name}]: must be a table, not {_what(tables.pop(name), name)}" for name in wrong]
    return tables, said


def _what(value: Any, name: str) -> str:
    """What a value written where a table belongs is, without the value itself when it is
    text or a list (``service = "KEY"``, ``[[service]]`` holding ``api_key``: no key is echoed)."""
    if isinstance(value, list):
        return f"a list of tables (write [{name}], not [[{name}]])" if all(isinstance(v, dict) for v in value) else "a list"
    return repr(value) if isinstance(value, (bool, int, float)) else "text" if isinstance(value, str) else type(value).__name__


def _validated(values: dict[str, Any], mistakes: list[str]) -> Settings:
    """``values`` checked; :class:`SettingsError` naming each of ``mistakes`` (found before)
    and each rule broken."""
    try:
        settings = Settings.model_validate(values)
    except ValidationError as exc:
        mistakes = mistakes + [_described(error) for error in exc.errors()]
    if mistakes:
        raise SettingsError("\n".join(mistakes)) from None
    return settings


def _described(error: Any) -> str:
    """``[calls] feeds[0].baresip.port: Input should be ...`` for one validation error."""
    section, *where = error["loc"] or ("settings",)
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in where).lstrip(".")
    message = error["msg"]
    if error["type"] == "extra_forbidden":  # "Extra inputs are not permitted": say which keys are
        message = f"no such setting ({suggestion(str(error['loc'][-1]), known_at(Settings, error['loc'][:-1]))})"
    return f"[{section}] {path}: {message}" if path else f"[{section}]: {message}"
