"""What the TUI's first screen needs of the settings, read without pydantic.

The whole :class:`~corpdir.config.settings.Settings` costs the start ~90 ms before the
first frame: pydantic's import and the build of every section's model (docs/performance.md,
"TUI start"). The first screen reads few of them: which cache to open (the service, the
key, the region), the theme, whether the desk is read-only, the keymap, and whether busy
lamps are configured. :func:`first_screen` reads those as the full reading would, from
the same sources (:func:`corpdir.paths.service_values` for the service, as `corpdir lookup`
does), and the app checks the whole settings right after the first rows are painted
(:meth:`corpdir.tui.app.CorpdirApp.settings_checked`); a setting that breaks a rule then
ends the app with the same message and status as before it started.

A value this reader cannot be sure of the way the full reading is (a number where text
belongs, a yes/no written some other way, a key in the system keyring, busy lamps) makes
it return None: the start then builds the full settings first, as it always did. So the
two never disagree on what the first screen shows (tests/common/test_first_settings.py).
"""

from __future__ import annotations

import os
import re
from typing import Any

from corpdir.paths import Profile, given, profile_for, read_config, service_values

# The [service] keys the first screen reads, with the defaults ServiceConfig gives them (a
# test holds the two together, as corpdir.paths.LOOKUP_SETTINGS's).
FIRST_SERVICE = {"base_url": None, "api_key": None, "api_key_file": None, "keyring_service": None, "region": "JP",
                 "read_only": False, "variant": "C", "demo_size": 500, "demo_seed": 1, "stale_after": 900.0}
FIRST_UI = {"theme": None, "read_only": False}
# pydantic's words for a yes/no given as text (its "bool_parsing"), the ones a person writes
_BOOLS = {"true": True, "1": True, "yes": True, "on": True, "false": False, "0": False, "no": False, "off": False}


class Unsure(Exception):
    """A value the full reading must judge."""


class FirstService:
    """The ``[service]`` values the first screen reads, named as
    :class:`~corpdir.config.service.ServiceConfig` names them, with its :meth:`profile` and
    :attr:`is_demo`: what :class:`corpdir.service.directory.DirectoryService` asks of its
    settings until the checked ones replace them."""

    provisional = True  # the first screen reads plain records (corpdir.cache.plain) until the checked settings come

    def __init__(self, values: dict[str, Any]) -> None:
        self.base_url: str | None = values["base_url"]
        self.api_key_file: str | None = values["api_key_file"]
        self.region: str = values["region"]
        self.read_only: bool = values["read_only"]
        self.variant: str = values["variant"]
        self.demo_size: int = values["demo_size"]
        self.demo_seed: int = values["demo_seed"]
        self.stale_after: float = values["stale_after"]
        self._profile = profile_for(self.base_url, values["api_key"], self.api_key_file)

    @property
    def is_demo(self) -> bool:
        return self._profile.is_demo

    def profile(self) -> Profile:
        return self._profile


class FirstUi:
    """The ``[ui]`` values the first screen reads (:class:`~corpdir.config.ui.UiConfig`'s names)."""

    def __init__(self, theme: str | None, read_only: bool) -> None:
        self.theme = theme
        self.read_only = read_only


class FirstScreen:
    """What :func:`first_screen` read: the service, the ``[ui]`` values and the keymap."""

    def __init__(self, service: FirstService, ui: FirstUi, keymap: dict[str, Any]) -> None:
        self.service = service
        self.ui = ui
        self.keymap = keymap


def first_screen(base_url: str | None = None, theme: str | None = None) -> FirstScreen | None:
    """The first screen's settings from the flags (``--base-url``, ``--theme``), the
    environment and the config file, or None when the full reading must come first.

    Raises :class:`~corpdir.paths.SettingsError` as the full reading does for a file that
    is not TOML."""
    tables = read_config()
    try:  # a flag is taken as load_settings takes it: as written, unless it is blank
        service = _service(tables, base_url if given(base_url) is not None else None)
        ui = _ui(tables, theme if given(theme) is not None else None)
        keymap = _table(tables, "keymap")
        calls = _table(tables, "calls")
    except Unsure:
        return None
    environment = {name.lower() for name in os.environ}
    if "presence" in calls or "corpdir_calls_presence" in environment:
        return None  # busy lamps: their column is on the first screen, built from the checked [calls.presence]
    return FirstScreen(service, ui, dotted(keymap))


def _table(tables: dict[str, Any], name: str) -> dict[str, Any]:
    table = tables.get(name, {})
    if not isinstance(table, dict):
        raise Unsure(name)
    return table


def _service(tables: dict[str, Any], base_url: str | None) -> FirstService:
    from corpdir.phone_rules import checked_region

    values = {**FIRST_SERVICE, **service_values(FIRST_SERVICE, _table(tables, "service"))}
    if base_url is not None:
        values["base_url"] = base_url
    for name in ("base_url", "api_key", "api_key_file", "keyring_service", "region"):
        if values[name] is not None and not isinstance(values[name], str):
            raise Unsure(name)
    try:
        values["region"] = checked_region(values["region"])
    except ValueError:
        raise Unsure("region") from None
    values["read_only"] = _yes_no(values["read_only"])
    if values["variant"] not in ("A", "B", "C"):
        raise Unsure("variant")
    values["demo_size"] = _whole(values["demo_size"], least=10)
    values["demo_seed"] = _whole(values["demo_seed"])
    values["stale_after"] = _seconds(values["stale_after"])
    service = FirstService(values)
    profile = service.profile()
    if not profile.is_demo and profile.api_key is None and values["keyring_service"]:
        raise Unsure("keyring_service")  # the keyring is asked by ServiceConfig.profile alone
    return service


def _ui(tables: dict[str, Any], theme: str | None) -> FirstUi:
    table = _table(tables, "ui")
    environment = {name.lower(): value for name, value in os.environ.items() if name.lower().startswith("corpdir_ui_")}
    values = {**FIRST_UI, **{k: v for k, v in table.items() if k in FIRST_UI}}
    values.update({name: environment[f"corpdir_ui_{name}"] for name in FIRST_UI if f"corpdir_ui_{name}" in environment})
    if theme is not None:
        values["theme"] = theme
    if values["theme"] is not None and not isinstance(values["theme"], str):
        raise Unsure("theme")
    return FirstUi(values["theme"], _yes_no(values["read_only"]))


def _yes_no(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _BOOLS:
        return _BOOLS[value.lower()]
    raise Unsure(value)


def _whole(value: Any, least: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Unsure(value)
    if isinstance(value, str):
        if not re.fullmatch(r"-?[0-9]+", value):
            raise Unsure(value)
        value = int(value)
    if least is not None and value < least:
        raise Unsure(value)
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise Unsure(value)
    if isinstance(value, str) and not re.fullmatch(r"[0-9]+(\.[0-9]+)?", value):
        raise Unsure(value)
    if float(value) < 0:
        raise Unsure(value)
    return float(value)


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
