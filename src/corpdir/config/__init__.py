"""corpdir's configuration: one typed :class:`Settings` object built once, before a command
or the app starts, with one section per table of the config file.

Sources, strongest first: command-line flags (passed to :func:`load_settings` per
section), environment variables, then the config file (``config.toml`` in the
platformdirs config dir, or the file named by ``CORPDIR_CONFIG``). A section's variables
are ``CORPDIR_<SECTION>_<KEY>`` (``CORPDIR_GATEWAY_PORT``, ``CORPDIR_UI_THEME``), except the
service's, which are ``CORPDIR_<KEY>`` (``CORPDIR_BASE_URL``); a list or a table in a
variable is written as JSON. With no base URL anywhere, corpdir runs the reference server
in-process on the demo tenant (the embedded default).

Things the app learns while running (the chosen theme, recent lookups) are state, not
configuration: they live in :mod:`corpdir.state`, never rewritten into the user's file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from corpdir.exports import lazy

if TYPE_CHECKING:
    from corpdir.config.calls import (ActionUrlFeedConfig, AmiDialerConfig, AmiFeedConfig, BaresipDialerConfig,
                                      BaresipFeedConfig, CallsConfig, DialerConfig, FeedConfig, HistoryFeedConfig,
                                      PhoneUriDialerConfig)
    from corpdir.config.gateway import GatewayConfig
    from corpdir.config.messages import Destination, MessagesConfig, WhereaboutsConfig
    from corpdir.config.service import ConnectionConfig, ServiceConfig, service_env_names
    from corpdir.config.settings import Settings, load_service_settings, load_settings
    from corpdir.config.ssh import SshConfig
    from corpdir.config.ui import UiConfig
    from corpdir.paths import SettingsError

# Names are loaded on first use (PEP 562), as corpdir.spec's: the TUI's first screen is
# built from corpdir.config.first, which reads what that screen needs without pydantic,
# and importing it must not build every section's model (docs/performance.md).
_MODULES = {
    "corpdir.config.calls": ("ActionUrlFeedConfig AmiDialerConfig AmiFeedConfig BaresipDialerConfig BaresipFeedConfig "
                             "CallsConfig DialerConfig FeedConfig HistoryFeedConfig PhoneUriDialerConfig"),
    "corpdir.config.gateway": "GatewayConfig", "corpdir.config.messages": "Destination MessagesConfig WhereaboutsConfig",
    "corpdir.config.service": "ConnectionConfig ServiceConfig service_env_names",
    "corpdir.config.settings": "Settings load_service_settings load_settings",
    "corpdir.config.ssh": "SshConfig", "corpdir.config.ui": "UiConfig", "corpdir.paths": "SettingsError",
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names.split()}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy(__name__, _EXPORTS)
