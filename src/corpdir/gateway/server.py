"""Running the gateway: settings, the token, the service, the HTTP server."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from corpdir.paths import data_dir

FLAGS = ("host", "port", "token", "user", "allow", "deadline_ms", "n1_share", "sync_every", "public_url")


def stored_token(folder: Path | None = None) -> str:
    """The gateway's token, made once and kept (mode 0600) so PBX settings stay valid."""
    path = (folder or data_dir()) / "gateway-token"
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(18)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(token + "\n")
    return token


def main(args: argparse.Namespace) -> int:
    import asyncio

    from corpdir.config import load_settings
    from corpdir.gateway.access import freepbx_breaks
    from corpdir.gateway.app import build_app
    from corpdir.gateway.http_workers import serve, worker_count
    from corpdir.service.directory import DirectoryService

    config = load_settings(service={"base_url": args.base_url},
                           gateway={k: v for k in FLAGS if (v := getattr(args, k, None)) is not None})
    settings = config.gateway
    if settings.token is None and settings.user is None:
        settings = settings.model_copy(update={"token": SecretStr(stored_token())})  # model_copy does not validate
    if settings.user is not None and settings.password is None:
        print("corpdir gateway: --user needs a password (CORPDIR_GATEWAY_PASSWORD or [gateway] password)", file=sys.stderr)
        return 2
    if settings.password is not None and freepbx_breaks(settings.password.get_secret_value()):
        print("corpdir gateway: warning: the password holds a space; FreePBX's HTTP lookup source sends it as '+'"
              " (every lookup gets 401): use the token path there, or a password without spaces", file=sys.stderr)
    workers = worker_count(getattr(args, "workers", None))
    service = DirectoryService.open(config.service)
    label = service.label()
    asyncio.run(service.close())  # each worker opens its own, after the fork

    def build(primary: bool) -> Any:
        """One worker's app; only the primary syncs (and asks the service: :mod:`.http_workers`)."""
        return build_app(DirectoryService.open(config.service),
                         settings if primary else settings.model_copy(update={"sync_every": 0}))

    from corpdir.gateway.check import origin_of

    base = origin_of(settings.host, settings.port)
    if settings.token is not None:
        print(f"corpdir gateway on {base}/t/{settings.token.get_secret_value()}/  (caller-ID: .../cid?number=NUMBER)")
    if settings.user is not None:
        print(f"corpdir gateway on {base}/ for HTTP basic auth user {settings.user!r}")
    print(f"answering from the cache of {label} in {workers} worker process{'es' if workers > 1 else ''}; uncached"
          f" numbers: the service, at most {settings.deadline_ms:g} ms. `corpdir gateway --help` shows what to type"
          " into each PBX and phone.", flush=True)
    return serve(build, settings.host, settings.port, workers)
