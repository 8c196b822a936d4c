"""`corpdir server`: run the reference directory service."""

from __future__ import annotations

import argparse

HELP = "run the reference directory service (FastAPI + SQLite)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("corpdir server: not implemented yet")
