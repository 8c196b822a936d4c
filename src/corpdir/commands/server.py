"""`corpdir server`: run the reference directory service."""

from __future__ import annotations

import argparse
import ipaddress
import socket

from corpdir.commands.arg_types import port, whole_number

HELP = "run the reference directory service (FastAPI + SQLite)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=port, default=8765, help="the TCP port to listen on (default: 8765)")
    parser.add_argument("--data", default=None, help="data directory (SQLite database); default: in memory")
    parser.add_argument("--variant", default="C", choices=["A", "B", "C"], help="interface variant to serve (default C)")
    parser.add_argument("--demo", action="store_true", help="fill a new data directory with a generated demo tenant")
    parser.add_argument("--size", type=_demo_size, default=500, help="demo tenant: number of users (10 or more; default 500)")
    parser.add_argument("--seed", type=int, default=1, help="demo tenant: random seed (default 1)")
    parser.add_argument("--no-rate-limit", action="store_true",
                        help="turn the limits off: the token bucket and L1's one request per 5 minutes (for test runs)")
    parser.add_argument("--allow", action="append", default=[], metavar="NETWORK", type=_network,
                        help="answer only callers in this network (CIDR, e.g. 192.0.2.0/24 or 127.0.0.1); "
                             "repeatable; others get 403 ACCESS_DENIED. Default: any caller")
    parser.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                        help="trust X-Forwarded-For/-Proto from these proxy addresses (comma-separated, as uvicorn "
                             "takes them). Without it the headers are ignored, so a caller cannot name its own address")


def _demo_size(text: str) -> int:
    """``--size``: below the generator's minimum it ended in a traceback after the port was taken."""
    from corpdir.server import DEMO_MIN_SIZE

    return whole_number(text, DEMO_MIN_SIZE)


def _network(text: str) -> str:
    """A CIDR network or a single address, checked when the command line is read."""
    try:
        return str(ipaddress.ip_network(text, strict=False))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a network (e.g. 192.0.2.0/24) or an address") from None


def _listen(host: str, port: int) -> socket.socket | None:
    """The listening socket, taken before anything is printed or created (a new directory's
    API key is shown once): a taken port is said plainly, not after a 'Serving' line."""
    import sys

    try:
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as exc:
        print(f"corpdir server: cannot listen on {host}:{port}: {why_not_listening(exc) or exc.strerror or exc}",
              file=sys.stderr)
        return None


def why_not_listening(exc: OSError) -> str | None:
    """Why binding a listening socket failed, as a user can act on it (also `corpdir gateway`'s);
    None for an OSError that is no failure to listen."""
    import errno

    if exc.errno == errno.EACCES:
        return "permission denied (a port below 1024 needs root); choose one of 1024 or more with --port"
    if exc.errno == errno.EADDRINUSE:
        return "the port is taken (another program listens there); choose another with --port"
    if isinstance(exc, socket.gaierror):
        return f"no such host ({exc.strerror}); give an address of this machine with --host"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "not an address of this machine; give one of its own with --host (0.0.0.0: every one)"
    return None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    sock = _listen(args.host, args.port)
    if sock is None:
        return 2
    from corpdir.server import RateLimitSettings, ServerSettings, create_app

    settings = ServerSettings(
        data=args.data, variant=args.variant, demo=bool(args.demo), demo_size=args.size, demo_seed=args.seed,
        rate_limit=RateLimitSettings(enabled=not args.no_rate_limit, spots_window=not args.no_rate_limit), allowed_networks=list(args.allow),
        public_url=f"http://{args.host}:{args.port}",
    )
    try:
        app = create_app(settings)
    except OSError as exc:  # --data names a file, or a folder that cannot be made
        import sys

        sock.close()
        print(f"corpdir server: cannot keep the directory in {args.data}: {exc.strerror or exc} "
              f"({exc.filename}); give a folder this user may write with --data", file=sys.stderr)
        return 2
    base = f"http://{args.host}:{args.port}"
    print(f"corpdir reference service, variant {settings.variant}, data: {settings.database}")
    if app.state.bootstrap_key:
        print(f"New directory: administrator loginId 'admin', API key (shown once): {app.state.bootstrap_key}")
    elif args.demo:
        print("Demo tenant keys: demo-admin (ADMIN_COMPANY), demo-reception (no admin role), demo-noapi (no API use)")
    print(f"Serving {base} (also under {base}/v1); API description at {base}/openapi.json")
    if args.allow:
        print(f"Callers allowed from: {', '.join(args.allow)}")
    proxy = args.forwarded_allow_ips is not None
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", proxy_headers=proxy,
                            forwarded_allow_ips=args.forwarded_allow_ips if proxy else None)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
