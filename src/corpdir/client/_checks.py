"""What the client checks about its own configuration before it sends anything.

An address that is not ``http(s)://host``, an API key HTTP cannot carry in a header, or a
key about to travel unencrypted to another machine: each is found when the client is
built, with a sentence that never shows the key, rather than on every request.
"""

from __future__ import annotations

import ipaddress
from typing import Mapping
from urllib.parse import urlsplit

from pydantic import SecretStr

from corpdir.client._redact import REDACTED
from corpdir.client.errors import ConfigError


class InsecureTransportWarning(UserWarning):
    """The API key would travel unencrypted (http:// to a host that is not this machine)."""


def is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def redact_headers(headers: Mapping[str, str], secret_header: str) -> dict[str, str]:
    """Headers fit for a log line: the auth header's value replaced."""
    hidden = {secret_header.lower(), "authorization", "x-api-key", "proxy-authorization", "cookie"}
    return {k: (REDACTED if k.lower() in hidden else v) for k, v in headers.items()}



def check_base_url(url: str | None) -> str:
    """The base URL without a trailing slash; refused (ConfigError) unless http(s)://host..."""
    if not url:
        raise ConfigError("No directory service address (base URL) is configured.")
    url = str(url).strip()
    try:
        parts = urlsplit(url)
        host, _port = parts.hostname, parts.port  # .port raises on a port that is no number
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host or parts.query or parts.fragment:
        shown = url.split("?")[0].split("#")[0].rsplit("@", 1)[-1]  # never a password or a key in a query
        raise ConfigError(
            f"The directory service address {shown!r} is not usable: it must look like https://host/prefix "
            "(http:// or https://, a host name, an optional port, no query)."
        )
    if "@" in parts.netloc:  # httpx would send it as Basic auth in place of the API key
        shown = f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}{parts.path}"
        raise ConfigError(
            f"The directory service address {shown!r} must not carry a user name or password (user:password@host): "
            "the service is reached with the API key (api_key, CORPDIR_API_KEY or api_key_file)."
        )
    return url.rstrip("/")


def check_api_key(key: str | SecretStr | None) -> SecretStr | None:
    """The key as a SecretStr, surrounding whitespace removed; refused (ConfigError, which
    never shows the key) if HTTP cannot carry it in a header: a stray line break or
    non-ASCII character would otherwise fail on every request, with the key in the error."""
    if key is None:
        return None
    text = (key.get_secret_value() if isinstance(key, SecretStr) else str(key)).strip()
    if not text:
        return None
    bad = next((i for i, ch in enumerate(text) if not " " <= ch <= "~"), None)
    if bad is not None:
        raise ConfigError(
            f"The API key has a character that cannot be sent in an HTTP header (character {bad + 1} of "
            f"{len(text)}: a line break, tab or non-ASCII character). Check how the key was copied."
        )
    return SecretStr(text)
