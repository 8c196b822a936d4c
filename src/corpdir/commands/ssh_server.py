"""`corpdir ssh-server`: the read-only directory over SSH, one app process per session."""

from __future__ import annotations

import argparse

HELP = "serve the directory TUI over SSH (public keys only; one read-only session per connection)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1; also [ssh] host)")
    parser.add_argument("--port", type=int, help="port (default 2222)")
    parser.add_argument("--host-key", metavar="FILE", help="the server's private host key (generated, mode 0600, if missing; or [ssh] host_key)")
    parser.add_argument("--authorized-keys", metavar="FILE", help="OpenSSH authorized_keys: who may log in (or [ssh] authorized_keys)")
    parser.add_argument("--profiles", metavar="FILE", help="TOML: [[keys]] public_key = ..., profile = { base_url, api_key_file, ... }")
    parser.add_argument("--idle-timeout", type=float, metavar="S", help="close a session after S seconds without a key pressed (default 900; 0: never)")
    parser.add_argument("--max-sessions", type=int, metavar="N", help="sessions at once (default 20)")
    parser.add_argument("--max-startups", metavar="START[:RATE:FULL]",
                        help="connections that have not finished logging in, like sshd's MaxStartups: past START, RATE %% of"
                             " new ones from an address that already has one are dropped, rising to all at FULL (default:"
                             " --max-sessions:30:5x, so that many clients opening at once all get in)")
    parser.add_argument("--per-source-startups", type=int, metavar="N",
                        help="connections not yet logged in that one address (an IPv6 /64) may hold (default: START)")
    parser.add_argument("--preauth-timeout", type=float, metavar="S",
                        help="drop a connection that has not asked to log in after S seconds and refuse its address"
                             " for 20 s, like sshd's PerSourcePenalties (default 10)")
    parser.add_argument("--login-timeout", type=float, metavar="S",
                        help="drop a connection that has not logged in after S seconds (default 30)")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="how much the server logs (default: INFO)")


FLAGS = ("host", "port", "host_key", "authorized_keys", "profiles", "idle_timeout", "max_sessions", "max_startups",
         "per_source_startups", "preauth_timeout", "login_timeout")


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal
    import sys

    from corpdir.config import load_settings
    from corpdir.ssh.authorized import KeyRing, ProfileError
    from corpdir.ssh.hostkey import HostKeyError
    from corpdir.ssh.server import DirectoryServer, ServerOptions
    from corpdir.ssh.startups import StartupLimits

    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # its INFO lines are per-packet chatter
    ssh = load_settings(ssh={name: getattr(args, name) for name in FLAGS}).ssh
    if ssh.host_key is None or ssh.authorized_keys is None:
        print("corpdir ssh-server: --host-key and --authorized-keys (or [ssh] host_key and authorized_keys) are needed",
              file=sys.stderr)
        return 2
    try:
        keys = KeyRing.load(ssh.authorized_keys, ssh.profiles)
        startups = StartupLimits.parse(str(ssh.max_startups or ssh.max_sessions),
                                       per_source=ssh.per_source_startups, preauth_timeout=ssh.preauth_timeout)
    except (ProfileError, ValueError) as exc:
        print(f"corpdir ssh-server: {exc}", file=sys.stderr)
        return 2
    config = ServerOptions(keys=keys, host_key=ssh.host_key, host=ssh.host, port=ssh.port,
                           idle_timeout=ssh.idle_timeout or None, max_sessions=ssh.max_sessions,
                           max_startups=startups, login_timeout=ssh.login_timeout)

    async def serve() -> int:
        server = DirectoryServer(config)
        try:
            await server.start()
        except HostKeyError as exc:
            print(f"corpdir ssh-server: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"corpdir ssh-server: cannot listen on {ssh.host}:{ssh.port}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        print(f"corpdir ssh-server on {ssh.host}:{server.port}: ssh -p {server.port} {ssh.host}", file=sys.stderr, flush=True)
        await stop.wait()
        await server.close()  # every session's app and its process group end here
        return 0

    return asyncio.run(serve())
