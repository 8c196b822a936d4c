"""`corpdir ssh-server`: the read-only directory over SSH, one app process per session."""

from __future__ import annotations

import argparse

HELP = "serve the directory TUI over SSH (public keys only; one read-only session per connection)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2222, help="port (default 2222)")
    parser.add_argument("--host-key", required=True, metavar="FILE", help="the server's private host key (generated, mode 0600, if missing)")
    parser.add_argument("--authorized-keys", required=True, metavar="FILE", help="OpenSSH authorized_keys: who may log in")
    parser.add_argument("--profiles", metavar="FILE", help="TOML: [[keys]] public_key = ..., profile = { base_url, api_key_file, ... }")
    parser.add_argument("--idle-timeout", type=float, default=900, metavar="S", help="close a session after S seconds without a key pressed (default 900; 0: never)")
    parser.add_argument("--max-sessions", type=int, default=20, metavar="N", help="sessions at once (default 20)")
    parser.add_argument("--max-startups", default=None, metavar="START[:RATE:FULL]",
                        help="connections that have not finished logging in, like sshd's MaxStartups: past START, RATE %% of"
                             " new ones from an address that already has one are dropped, rising to all at FULL (default:"
                             " --max-sessions:30:5x, so that many clients opening at once all get in)")
    parser.add_argument("--per-source-startups", type=int, default=None, metavar="N",
                        help="connections not yet logged in that one address (an IPv6 /64) may hold (default: START)")
    parser.add_argument("--preauth-timeout", type=float, default=10, metavar="S",
                        help="drop a connection that has not asked to log in after S seconds and refuse its address"
                             " for 20 s, like sshd's PerSourcePenalties (default 10)")
    parser.add_argument("--login-timeout", type=float, default=30, metavar="S",
                        help="drop a connection that has not logged in after S seconds (default 30)")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="how much the server logs (default: INFO)")


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal
    import sys
    from pathlib import Path

    from corpdir.ssh.authorized import KeyRing, ProfileError
    from corpdir.ssh.hostkey import HostKeyError
    from corpdir.ssh.server import DirectoryServer, ServerConfig
    from corpdir.ssh.startups import StartupLimits

    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # its INFO lines are per-packet chatter
    try:
        keys = KeyRing.load(Path(args.authorized_keys), Path(args.profiles) if args.profiles else None)
        startups = StartupLimits.parse(args.max_startups or str(args.max_sessions),
                                       per_source=args.per_source_startups, preauth_timeout=args.preauth_timeout)
    except (ProfileError, ValueError) as exc:
        print(f"corpdir ssh-server: {exc}", file=sys.stderr)
        return 2
    config = ServerConfig(keys=keys, host_key=Path(args.host_key), host=args.host, port=args.port,
                          idle_timeout=args.idle_timeout or None, max_sessions=args.max_sessions,
                          max_startups=startups, login_timeout=args.login_timeout)

    async def serve() -> int:
        server = DirectoryServer(config)
        try:
            await server.start()
        except HostKeyError as exc:
            print(f"corpdir ssh-server: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"corpdir ssh-server: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        print(f"corpdir ssh-server on {args.host}:{server.port}: ssh -p {server.port} {args.host}", file=sys.stderr, flush=True)
        await stop.wait()
        await server.close()  # every session's app and its process group end here
        return 0

    return asyncio.run(serve())
