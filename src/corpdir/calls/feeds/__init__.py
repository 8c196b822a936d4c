"""The call feeds, one module each; :func:`build_feeds` makes them from the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from corpdir.calls.hub import Feed
    from corpdir.config import CallsConfig
    from corpdir.service.calls import CallDesk


def build_feeds(settings: CallsConfig, desk: CallDesk) -> list[Feed]:
    """One feed object per ``[[calls.feeds]]`` entry (imports only the kinds in use)."""
    feeds: list[Any] = []
    for config in settings.feeds:
        if config.kind == "history":
            from corpdir.calls.feeds.history import HistoryFeed

            feeds.append(HistoryFeed(config, desk))
        elif config.kind == "baresip":
            from corpdir.calls.feeds.baresip import BaresipFeed

            feeds.append(BaresipFeed(config))
        elif config.kind == "ami":
            from corpdir.calls.feeds.ami import AmiFeed

            feeds.append(AmiFeed(config))
        elif config.kind == "action_url":
            from corpdir.calls.feeds.action_url import ActionUrlFeed

            feeds.append(ActionUrlFeed(config))
    return feeds
